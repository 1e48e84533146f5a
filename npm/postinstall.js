// Run by npm after it installs session-hooks: puts this machine's binary
// where the command's link leads (bin/session-hooks.js), so that the
// command, and every hook that runs it by name from PATH, starts no
// Node.js: through the launcher a hook cost 26 times the binary (380 vs
// 10 ms here), and Gemini CLI and Copilot CLI run one before every model
// request. Claude Code's own npm package does the same.
//
// Nothing here is needed: with --ignore-scripts, on Windows (where npm's
// command shim runs the file with node), or when anything fails, the
// launcher stays and runs the binary itself. It never fails the install.
'use strict';

const fs = require('fs');
const path = require('path');

const names = {
  'linux x64': 'linux-x64',
  'linux arm64': 'linux-arm64',
  'darwin x64': 'darwin-x64',
  'darwin arm64': 'darwin-arm64',
};

function place() {
  const name = names[process.platform + ' ' + process.arch];
  if (!name) {
    return; // Windows, or no build: the launcher says what to do
  }
  const dir = path.dirname(require.resolve('@session-hooks/' + name + '/package.json'));
  const binary = path.join(dir, 'bin', 'session-hooks');
  const command = path.join(__dirname, 'session-hooks.js');
  const tmp = command + '.tmp-' + process.pid;
  fs.copyFileSync(binary, tmp);
  fs.chmodSync(tmp, 0o755);
  fs.renameSync(tmp, command); // atomic: the command is the launcher or the binary, never half of one
}

try {
  place();
} catch (e) {
  // The optional package left out (--omit=optional), a read-only folder:
  // the launcher runs instead, and says what is missing.
}
