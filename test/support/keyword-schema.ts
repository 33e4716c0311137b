/**
 * A schema file (for tests only) that uses every keyword and annotation the validator generator
 * supports, in the combinations where its decisions are subtle: type lists, keywords without a
 * type, custom reasons, boolean schemas, property names Object.prototype also has, required
 * fields not listed in `properties`, `x-pathRoot` on called and inlined schemas, byte limits on
 * strings and on other values (and where the verdict so far gates them), rules, recursion, strict
 * mode. test/validation/compact-validators-equivalence.test.ts compiles it with both validator back ends.
 */
export const KEYWORD_SCHEMA = {
  $defs: {
    str: { type: "string", minLength: 2, maxLength: 5, "x-minBytes": 3, "x-maxBytes": 9, pattern: "^[a-zé😀]*$" },
    strReasons: {
      type: "string",
      minLength: 2,
      maxLength: 4,
      pattern: "^a",
      "x-reason": {
        minLength: "too short",
        maxLength: "too long",
        pattern: "must start with a",
        type: "want text",
        items: "never used",
      },
    },
    strOne: { type: "string", minLength: 1, pattern: "^[^\\p{White_Space}]+$" },
    identifier: { type: "string", minLength: 1, pattern: "^[^\\p{White_Space}\\u0000-\\u001F\\u007F-\\u009F]+$" },
    strOrNull: { type: ["string", "null"], "x-maxBytes": 6 },
    strOrNullLen: { type: ["string", "null"], minLength: 1, "x-maxBytes": 6 },
    untypedString: { minLength: 2, pattern: "^[0-9]+$", "x-maxBytes": 5, "x-minBytes": 3 },
    num: { type: "number", minimum: -1.5, maximum: 10, multipleOf: 0.5 },
    int: { type: "integer", exclusiveMinimum: 0, exclusiveMaximum: 100, multipleOf: 3 },
    intReasons: {
      type: "integer",
      minimum: 1,
      maximum: 3,
      "x-reason": { minimum: "at least one", maximum: "at most three", multipleOf: "unused" },
    },
    intOrStr: { type: ["integer", "string"], minimum: 2, maxLength: 3 },
    numTypes: { type: ["integer", "number"], maximum: 5 },
    nullOrBool: { type: ["null", "boolean", "integer"] },
    untypedNumber: { minimum: 3, exclusiveMaximum: 7 },
    consts: { anyOf: [{ const: null }, { const: "x" }, { const: 2.5 }, { const: false }] },
    longConst: { const: "a long constant value that is longer than sixty four characters, so gotValue shortens it" },
    enumMixed: { enum: ["a", 1, true, null, "bé"] },
    enumLong: { enum: ["one", "two", "three", "four", "five", "sixsix"] },
    enumNums: { enum: [1, 2, 3, 4, 5, 6] },
    enumReason: { enum: ["a", "b"], "x-reason": { enum: "pick a or b" } },
    obj: {
      type: "object",
      properties: {
        a: { $ref: "#/$defs/str" },
        constructor: { type: "integer" },
        toString: true,
        "b c": { type: "boolean" },
        "0": { const: 0 },
        anyOk: {},
        nothing: false,
        details: { "x-maxBytes": 20 },
      },
      required: ["a", "b c", "missingAndUnlisted", "hasOwnProperty", "constructor", "a"],
      minProperties: 2,
      maxProperties: 6,
    },
    closedObj: {
      type: "object",
      additionalProperties: false,
      properties: { x: { type: "integer" } },
      required: ["x"],
      "x-reason": { additionalProperties: "no extras", required: "x needed" },
    },
    emptyClosed: { type: "object", additionalProperties: false },
    minOne: { type: "object", minProperties: 1 },
    mapObj: {
      type: "object",
      additionalProperties: { type: "integer", minimum: 0 },
      propertyNames: { minLength: 2, pattern: "^[a-z]+$" },
      minProperties: 1,
      maxProperties: 3,
    },
    apTrue: { type: "object", properties: { a: { type: "string" } }, additionalProperties: true },
    untypedObj: { properties: { a: { type: "string" } }, required: ["b"], maxProperties: 2 },
    objOrNull: { type: ["object", "null"], properties: { k: { type: "string" } }, required: ["k"] },
    arr: { type: "array", items: { type: "integer" }, minItems: 2, maxItems: 4, uniqueItems: true },
    arrOne: { type: "array", minItems: 1, items: false },
    arrContains: { type: "array", contains: { type: "string" }, minContains: 2, maxContains: 3 },
    arrContainsOne: { type: "array", contains: { $ref: "#/$defs/int" }, maxContains: 1 },
    arrUniqueObjects: { type: "array", uniqueItems: true, "x-reason": { uniqueItems: "no repeats" } },
    untypedArr: { items: { type: "string" }, maxItems: 2 },
    notStr: { not: { type: "string" } },
    notReason: { not: { $ref: "#/$defs/int" }, "x-reason": { not: "no ints" } },
    ifThenElse: {
      type: "object",
      if: { properties: { kind: { const: "a" } }, required: ["kind"] },
      then: { required: ["a"] },
      else: { required: ["b"], properties: { b: { type: "integer" } } },
    },
    ifOnly: { if: { type: "string" } },
    anyOfDeep: {
      anyOf: [
        { type: "object", properties: { a: { type: "integer" } }, required: ["a"] },
        { type: "object", properties: { b: { type: "string", minLength: 2 } }, required: ["b"] },
        { type: "array" },
      ],
    },
    anyOfReason: { anyOf: [{ type: "string" }, { type: "integer" }], "x-reason": { anyOf: "string or integer" } },
    oneOfOverlap: {
      oneOf: [{ type: "integer" }, { type: "number", minimum: 0 }, { $ref: "#/$defs/str", title: "Wrapped" }],
    },
    oneOfReason: { oneOf: [{ type: "integer" }, { type: "number" }], "x-reason": { oneOf: "exactly one please" } },
    allOfs: {
      allOf: [
        { type: "object", properties: { a: { type: "integer" } } },
        { required: ["a", "b"] },
        { $ref: "#/$defs/closedObj" },
      ],
    },
    boolTrue: true,
    boolFalse: false,
    anyJson: { description: "anything JSON" },
    typeMany: { type: ["object", "array", "string", "null"] },
    rooted: {
      "x-pathRoot": true,
      type: "object",
      properties: {
        inner: { type: "object", "x-pathRoot": true, properties: { v: { type: "integer" } } },
        ref: { $ref: "#/$defs/rootedLeaf" },
        list: { type: "array", items: { $ref: "#/$defs/rootedLeaf" } },
        either: { anyOf: [{ $ref: "#/$defs/rootedLeaf" }, { type: "string" }] },
      },
    },
    rootedLeaf: { "x-pathRoot": true, type: "object", properties: { leaf: { type: "string" } }, required: ["leaf"] },
    sized: {
      type: "object",
      "x-maxBytes": 60,
      properties: { a: { type: "string" }, b: { type: "array", items: { type: "integer" } }, c: { enum: ["é", "ü"] } },
      required: ["a"],
      additionalProperties: false,
    },
    // Byte limits measured by the schema (a closed object adds up its listed fields), on values
    // that are valid without being JSON: a `true` or untyped field holding a function or undefined.
    sizedLoose: {
      type: "object",
      additionalProperties: false,
      "x-maxBytes": 24,
      properties: {
        a: true,
        b: { type: "string" },
        constructor: { type: "integer" },
        u: { minLength: 1 },
        n: { $ref: "#/$defs/sizedLoose" },
      },
      required: ["u"],
    },
    sizedList: {
      type: ["object"],
      additionalProperties: false,
      "x-maxBytes": 20,
      properties: { a: true, b: { type: "string" } },
    },
    sizedArray: { type: "array", "x-maxBytes": 40, items: { $ref: "#/$defs/sizedLoose" } },
    sizedItems: { type: "array", "x-maxBytes": 12, items: true },
    // The sizer of a closed object reads every listed field as `x[name]`, so a name Object.prototype
    // has is measured (by its schema's formula) even when absent: one definition per formula.
    ...Object.fromEntries(
      (
        [
          ["inheritedArray", "constructor", { type: "array", items: { type: "integer" } }],
          ["inheritedArrayOfAny", "constructor", { type: "array", items: true }],
          ["inheritedLengthless", "__proto__", { type: "array", items: { type: "integer" } }],
          ["inheritedEnum", "valueOf", { enum: ["é", "ü"] }],
          ["inheritedAsciiEnum", "hasOwnProperty", { enum: ["a", "b"] }],
          ["inheritedConst", "isPrototypeOf", { const: "x" }],
          ["inheritedBoolean", "propertyIsEnumerable", { type: "boolean" }],
          ["inheritedString", "toString", { type: "string" }],
          ["inheritedInteger", "valueOf", { type: "integer" }],
          [
            "inheritedObject",
            "toLocaleString",
            {
              type: "object",
              additionalProperties: false,
              properties: { length: { type: "integer" }, name: { type: "string" } },
            },
          ],
        ] as const
      ).map(([def, name, schema]) => [
        def,
        {
          type: "object",
          additionalProperties: false,
          "x-maxBytes": 24,
          properties: { [name]: schema, v: { type: "string" } },
        },
      ]),
    ),
    // Measured exactly only past the cheap bound (which reads no characters): here the exact count would throw.
    inheritedStringBound: {
      type: "object",
      additionalProperties: false,
      "x-maxBytes": 40,
      properties: { hasOwnProperty: { type: "string" }, v: { type: "string" } },
    },
    sizedOpen: { type: "object", "x-maxBytes": 20, properties: { a: { type: "string" } } },
    gated: {
      type: "object",
      properties: {
        first: { type: "integer" },
        sizedInline: { type: "array", "x-maxBytes": 10 },
        last: { type: "integer" },
        deeper: { type: "object", properties: { inner: { "x-maxBytes": 8 } } },
      },
    },
    withRule: {
      type: "object",
      properties: {
        sessionId: { type: "string" },
        mutationLease: { type: "object", properties: { sessionId: { type: "string" } }, required: ["sessionId"] },
        n: { type: "integer" },
      },
      "x-rule": "leaseSessionMatches",
    },
    inlineRule: {
      type: "object",
      properties: {
        first: { type: "integer" },
        pair: {
          type: "object",
          properties: {
            sessionId: { type: "string" },
            mutationLease: { type: "object", properties: { sessionId: { type: "string" } }, required: ["sessionId"] },
          },
          "x-rule": ["leaseSessionMatches"],
        },
      },
    },
    recursive: {
      type: "object",
      properties: { child: { $ref: "#/$defs/recursive" }, v: { type: "integer" } },
      required: ["v"],
    },
    strictMe: {
      type: "object",
      properties: {
        a: { type: "integer" },
        nested: { type: "object", properties: { b: { type: "integer" } } },
        open: { type: "object" },
        anyOfObj: { anyOf: [{ type: "object", properties: { c: { type: "integer" } } }, { type: "string" }] },
        untyped: { properties: { d: { type: "integer" } } },
      },
    },
  },
} as const;
