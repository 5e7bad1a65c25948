// `npm start` and `npm run dev` run this first, before any build work: is the port they are about
// to serve on (PORT, else the default given as the first argument) free on 127.0.0.1? If not,
// one line names the port and how to pick another, and the script exits 1.
//
//   node scripts/port-check.mjs <default port> <the npm command, for the message>
//
// Plain JavaScript, like scripts/node-check.mjs.
import { createServer } from "node:net";

const HOST = "127.0.0.1";
const [defaultPort = "8787", command = "npm start"] = process.argv.slice(2);
const raw = process.env.PORT || defaultPort;
const port = Number(raw);

if (!/^\d+$/.test(raw) || port < 1 || port > 65535) {
  console.error(`PORT=${raw} is not a port number (1-65535). Pick another, e.g. PORT=8790 ${command}.`);
  process.exit(1);
}

/** Resolves with null when the port can be listened on, else with the error's code. */
function tryListen(candidate) {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", (error) => resolve(error.code ?? "error"));
    server.listen({ port: candidate, host: HOST, exclusive: true }, () => server.close(() => resolve(null)));
  });
}

const failure = await tryListen(port);
if (failure !== null) {
  // Suggest a port that is free right now.
  let suggestion = 8790;
  for (let candidate = port + 1; candidate <= Math.min(port + 50, 65535); candidate++) {
    if ((await tryListen(candidate)) === null) {
      suggestion = candidate;
      break;
    }
  }
  const why =
    failure === "EADDRINUSE"
      ? "is already in use"
      : failure === "EACCES"
        ? "needs privileges to listen on"
        : `cannot be listened on (${failure})`;
  console.error(`Port ${port} on ${HOST} ${why}; pick another with PORT, e.g. PORT=${suggestion} ${command}.`);
  process.exit(1);
}
