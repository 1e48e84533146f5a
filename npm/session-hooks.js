#!/usr/bin/env node
// The session-hooks command of the npm package: it runs the binary that
// npm installed for this machine, the one optional dependency of
// session-hooks whose "os" and "cpu" match (@session-hooks/linux-x64 and
// so on). npm's install script (postinstall.js) puts that binary in this
// file's place, so the command starts no Node.js; this launcher runs where
// it did not (--ignore-scripts, Windows, a failed copy).
//
// Hooks do not run through this file: `session-hooks install` writes the
// binary's own path (or, in a project's shared settings, the command on
// PATH), so a hook pays no Node.js start.
'use strict';

const { spawnSync } = require('child_process');
const path = require('path');

const names = {
  'linux x64': 'linux-x64',
  'linux arm64': 'linux-arm64',
  'darwin x64': 'darwin-x64',
  'darwin arm64': 'darwin-arm64',
  'win32 x64': 'win32-x64',
  'win32 arm64': 'win32-arm64',
};

// The hook subcommands (hooks.Commands, kept equal by a test): a hook
// always exits 0 and says nothing on stderr, so a hook whose binary is
// missing ends quietly; status and doctor say what is wrong.
const hooks = ['init', 'pre-compact', 'post-compact', 'end', 'stop', 'post-tool', 'model-switch'];

function isHook(args) {
  let i = 0;
  while (i < args.length && args[i].startsWith('-')) {
    i += args[i].includes('=') ? 1 : 2; // --agent codex, --agent=codex
  }
  return hooks.includes(args[i]);
}

function fail(message) {
  if (isHook(process.argv.slice(2))) {
    process.exit(0);
  }
  process.stderr.write('session-hooks: ' + message + '\n');
  process.exit(1);
}

const name = names[process.platform + ' ' + process.arch];
if (!name) {
  fail('there is no build for ' + process.platform + ' ' + process.arch +
    '; build it from source: https://github.com/session-hooks/session-hooks#install');
}
let dir;
try {
  dir = path.dirname(require.resolve('@session-hooks/' + name + '/package.json'));
} catch (e) {
  fail('the package @session-hooks/' + name + ', which holds the binary for this machine, is not installed. ' +
    'npm leaves optional dependencies out with --omit=optional or --no-optional: install again without it ' +
    '(npm i -g session-hooks).');
}
const binary = path.join(dir, 'bin', process.platform === 'win32' ? 'session-hooks.exe' : 'session-hooks');
const run = spawnSync(binary, process.argv.slice(2), { stdio: 'inherit', windowsHide: true });
if (run.error) {
  fail('could not run ' + binary + ': ' + run.error.message);
}
if (run.signal) {
  process.kill(process.pid, run.signal);
}
process.exit(run.status === null ? 1 : run.status);
