// Preloaded (node --import) into a server that has no option for its address, such as
// supergateway 4.0.0 (`app.listen(port)`: every interface): a listen() given only a port (and a
// callback) binds 127.0.0.1 instead, so the bench exposes nothing beyond this machine.
import net from "node:net";

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  if (typeof args[0] === "number" && (args.length === 1 || typeof args[1] === "function"))
    args.splice(1, 0, "127.0.0.1");
  return listen.apply(this, args);
};
