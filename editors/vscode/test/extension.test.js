// Runs extension.js against stand-ins for the `vscode` API and for
// vscode-languageclient, and checks the language server command it starts
// (`hindsight lsp ...` over stdio) and how it follows the settings.
// Run: `npm test`.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const Module = require('node:module');
const os = require('node:os');
const path = require('node:path');

const EXTENSION_JS = path.resolve(__dirname, '..', 'extension.js');

/** A fresh world: the fake APIs, what the extension did with them, and the extension. */
function load({ settings = {}, folder = '/ws', startError = null } = {}) {
  const world = {
    settings,
    clients: [],
    errors: [],
    commands: new Map(),
    configListeners: [],
  };
  const vscode = {
    workspace: {
      workspaceFolders: folder ? [{ uri: { fsPath: folder } }] : undefined,
      getConfiguration: (section) => ({
        get: (key, fallback) => {
          const full = `${section}.${key}`;
          return full in world.settings ? world.settings[full] : fallback;
        },
      }),
      onDidChangeConfiguration: (listener) => {
        world.configListeners.push(listener);
        return { dispose() {} };
      },
      onDidGrantWorkspaceTrust: () => ({ dispose() {} }),
    },
    window: {
      createOutputChannel: (name) => ({ name, appendLine() {}, dispose() {} }),
      showErrorMessage: async (message) => {
        world.errors.push(message);
        return undefined;
      },
    },
    commands: {
      registerCommand: (id, handler) => {
        world.commands.set(id, handler);
        return { dispose() {} };
      },
      executeCommand: async () => undefined,
    },
  };
  class LanguageClient {
    constructor(id, name, serverOptions, clientOptions) {
      Object.assign(this, { id, name, serverOptions, clientOptions, running: false, stopped: false });
      world.clients.push(this);
    }
    async start() {
      if (startError) {
        throw startError;
      }
      this.running = true;
    }
    async stop() {
      this.running = false;
      this.stopped = true;
    }
  }
  const languageclient = { LanguageClient, TransportKind: { stdio: 0, ipc: 1, pipe: 2, socket: 3 } };

  const originalLoad = Module._load;
  Module._load = function loadWithFakes(request, ...rest) {
    if (request === 'vscode') {
      return vscode;
    }
    if (request === 'vscode-languageclient/node') {
      return languageclient;
    }
    return originalLoad.call(this, request, ...rest);
  };
  try {
    delete require.cache[EXTENSION_JS];
    world.extension = require(EXTENSION_JS);
  } finally {
    Module._load = originalLoad;
  }
  world.context = { subscriptions: [] };
  world.languageclient = languageclient;
  return world;
}

test('activate starts `hindsight lsp` over stdio for hindsight documents', async () => {
  const world = load();
  await world.extension.activate(world.context);
  assert.equal(world.clients.length, 1);
  const [client] = world.clients;
  assert.equal(client.id, 'hindsight');
  assert.equal(client.serverOptions.command, 'hindsight');
  assert.deepEqual(client.serverOptions.args, ['lsp']);
  assert.equal(client.serverOptions.transport, world.languageclient.TransportKind.stdio);
  assert.ok(client.running);
  assert.ok(client.clientOptions.documentSelector.some((s) => s.language === 'hindsight' && s.scheme === 'file'));
  assert.ok(world.commands.has('hindsight.restartServer'));
  await world.extension.deactivate();
  assert.ok(client.stopped);
});

test('hindsight.server.path and hindsight.server.args make the command line', async () => {
  const world = load({
    settings: {
      'hindsight.server.path': '~/bin/hindsight',
      'hindsight.server.args': ['--log', 'debug'],
    },
  });
  await world.extension.activate(world.context);
  const [client] = world.clients;
  assert.equal(client.serverOptions.command, path.join(os.homedir(), 'bin', 'hindsight'));
  assert.deepEqual(client.serverOptions.args, ['lsp', '--log', 'debug']);
  await world.extension.deactivate();
});

test('server paths: bare names stay for PATH, relative paths are from the workspace', () => {
  const { resolveCommand } = load({ folder: '/ws' }).extension;
  assert.equal(resolveCommand('hindsight'), 'hindsight');
  assert.equal(resolveCommand(''), 'hindsight');
  assert.equal(resolveCommand('/opt/hindsight/bin/hindsight'), '/opt/hindsight/bin/hindsight');
  assert.equal(resolveCommand('./target/release/hindsight'), path.resolve('/ws', 'target/release/hindsight'));
  assert.equal(resolveCommand('${workspaceFolder}/target/debug/hindsight'), '/ws/target/debug/hindsight');
});

test('a change of hindsight.server.* restarts the server with the new command', async () => {
  const world = load();
  await world.extension.activate(world.context);
  world.settings['hindsight.server.path'] = '/usr/local/bin/hindsight';
  const affects = (section) => section === 'hindsight.server';
  for (const listener of world.configListeners) {
    await listener({ affectsConfiguration: affects });
  }
  // The listener does not wait for the restart: let it finish.
  for (let i = 0; i < 10; i++) {
    await new Promise((resolve) => setImmediate(resolve));
  }
  assert.equal(world.clients.length, 2);
  assert.ok(world.clients[0].stopped);
  assert.equal(world.clients[1].serverOptions.command, '/usr/local/bin/hindsight');
  assert.ok(world.clients[1].running);
  await world.extension.deactivate();
});

test('the restart command stops the running server and starts a new one', async () => {
  const world = load();
  await world.extension.activate(world.context);
  await world.commands.get('hindsight.restartServer')();
  assert.equal(world.clients.length, 2);
  assert.ok(world.clients[0].stopped);
  assert.ok(world.clients[1].running);
  await world.extension.deactivate();
  assert.ok(world.clients[1].stopped);
});

test('a server that fails to start is reported, and activation still succeeds', async () => {
  const world = load({ startError: new Error('spawn hindsight ENOENT') });
  await world.extension.activate(world.context);
  assert.equal(world.errors.length, 1);
  assert.match(world.errors[0], /hindsight lsp/);
  assert.match(world.errors[0], /ENOENT/);
  assert.match(world.errors[0], /hindsight\.server\.path/);
  await world.extension.deactivate();
});
