// Runs before the npm scripts that start `node something.ts`: those need Node's type stripping
// (on by default from Node 22.18), and an older Node fails with "Unknown file extension .ts".
// Plain JavaScript with nothing newer than ES2015, so that any Node can run it and say what to do.
var MINIMUM = [22, 18];
var version = process.versions.node;
var parts = version.split(".").map(Number);
var tooOld = parts[0] < MINIMUM[0] || (parts[0] === MINIMUM[0] && parts[1] < MINIMUM[1]);
if (tooOld) {
  console.error(
    "This project needs Node >= " +
      MINIMUM.join(".") +
      " (you have " +
      version +
      "). " +
      "Run `npm install` (it installs Node 22 into node_modules/.bin) and use the npm scripts, or install Node 22.",
  );
  process.exit(1);
}
