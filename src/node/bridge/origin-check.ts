/**
 * The canonical form of an origin (`scheme://host[:port]`, lower-case, default port dropped), or
 * `undefined` for something that is not one: opaque origins (`null`), or a URL with a path, query
 * or fragment.
 */
export function normalizeOrigin(origin: string): string | undefined {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return undefined;
  }
  if (url.host === "" || (url.pathname !== "" && url.pathname !== "/") || url.search !== "" || url.hash !== "" || url.username !== "" || url.password !== "") {
    return undefined;
  }
  if (url.protocol === "http:" || url.protocol === "https:") return url.origin;
  // URL.origin is "null" for other schemes (chrome-extension://, moz-extension://): keep scheme and host.
  return `${url.protocol}//${url.host}`;
}

/**
 * Whether a request's `Origin` header is acceptable: absent (not a browser page), or one of the
 * allowed origins. `Origin: null` (sandboxed frames, `file:` pages) and anything unparsable are
 * refused, since any page can produce them.
 */
export function originAllowed(origin: string | undefined, allowedOrigins: ReadonlySet<string>): boolean {
  if (origin === undefined) return true;
  const normalized = normalizeOrigin(origin);
  return normalized !== undefined && allowedOrigins.has(normalized);
}
