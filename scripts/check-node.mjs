// Preflight for `npm start`, `npm run dev` and `npm test`: plain JavaScript that any Node parses, so an
// old Node stops here with one clear line instead of ERR_UNKNOWN_FILE_EXTENSION ".ts". The server runs
// its TypeScript sources directly, which needs type stripping on by default: Node 22.18 or newer.
// Keep in step with "engines" in package.json.
const need = [22, 18];
const found = process.versions.node;
const [major, minor] = found.split('.').map(Number);
if (major < need[0] || (major === need[0] && minor < need[1])) {
  console.error(
    `Bourse needs Node.js ${need.join('.')} or newer (found ${found}): install Node 24 LTS from https://nodejs.org/en/download (or run \`nvm install 24\`).`,
  );
  process.exit(1);
}
