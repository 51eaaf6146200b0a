// The Hindsight extension: starts the Hindsight language server
// (`hindsight lsp`, JSON-RPC over stdio) for `.hind` files. Highlighting comes
// from the TextMate grammar in syntaxes/, and works without the server.
'use strict';

const os = require('os');
const path = require('path');
const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');

/** @type {LanguageClient | undefined} */
let client;
/** @type {vscode.OutputChannel | undefined} */
let outputChannel;
/** Starts, stops and restarts run one after another, never interleaved. */
let pending = Promise.resolve();

/** Runs `operation` after the ones already queued. */
function enqueue(operation) {
  pending = pending.then(operation, operation);
  return pending;
}

/** The first workspace folder's path, if any. */
function workspaceFolder() {
  const folders = vscode.workspace.workspaceFolders;
  return folders && folders.length > 0 ? folders[0].uri.fsPath : undefined;
}

/**
 * The server executable from `hindsight.server.path`: a bare name is left for
 * the OS to find on PATH; `~` and `${workspaceFolder}` are expanded; another
 * relative path is taken from the first workspace folder.
 */
function resolveCommand(configured) {
  let command = (configured || '').trim() || 'hindsight';
  const folder = workspaceFolder();
  if (command === '~' || command.startsWith('~/') || command.startsWith('~\\')) {
    command = path.join(os.homedir(), command.slice(1));
  }
  if (folder) {
    command = command.replace(/\$\{workspaceFolder\}/g, folder);
  }
  const hasSeparator = command.includes('/') || command.includes('\\');
  if (hasSeparator && !path.isAbsolute(command) && folder) {
    command = path.resolve(folder, command);
  }
  return command;
}

/** The command line that starts the server: `<path> lsp <args...>`. */
function serverCommand() {
  const config = vscode.workspace.getConfiguration('hindsight');
  const command = resolveCommand(config.get('server.path', 'hindsight'));
  const extra = config.get('server.args', []);
  const args = ['lsp', ...(Array.isArray(extra) ? extra.map(String) : [])];
  return { command, args };
}

async function startClient() {
  const { command, args } = serverCommand();
  /** @type {import('vscode-languageclient/node').ServerOptions} */
  const serverOptions = {
    command,
    args,
    transport: TransportKind.stdio,
    options: { cwd: workspaceFolder() },
  };
  /** @type {import('vscode-languageclient/node').LanguageClientOptions} */
  const clientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'hindsight' },
      { scheme: 'untitled', language: 'hindsight' },
    ],
    outputChannel,
  };
  // The id `hindsight` makes the client read `hindsight.trace.server`.
  client = new LanguageClient('hindsight', 'Hindsight Language Server', serverOptions, clientOptions);
  try {
    await client.start();
  } catch (err) {
    client = undefined;
    const line = [command, ...args].join(' ');
    const message = err && err.message ? err.message : String(err);
    // Not awaited: the notification stays until dismissed, and restarts
    // queued meanwhile must not wait for it.
    vscode.window
      .showErrorMessage(
        `Could not start the Hindsight language server (\`${line}\`): ${message}. ` +
          'Set "hindsight.server.path" to the hindsight executable.',
        'Open Settings',
      )
      .then((choice) => {
        if (choice === 'Open Settings') {
          vscode.commands.executeCommand('workbench.action.openSettings', 'hindsight.server');
        }
      });
  }
}

async function stopClient() {
  if (!client) {
    return;
  }
  const running = client;
  client = undefined;
  try {
    await running.stop();
  } catch (err) {
    if (outputChannel) {
      outputChannel.appendLine(`Stopping the language server failed: ${err}`);
    }
  }
}

function restartClient() {
  return enqueue(async () => {
    await stopClient();
    await startClient();
  });
}

/** @param {vscode.ExtensionContext} context */
async function activate(context) {
  outputChannel = vscode.window.createOutputChannel('Hindsight Language Server');
  context.subscriptions.push(outputChannel);
  context.subscriptions.push(
    vscode.commands.registerCommand('hindsight.restartServer', restartClient),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('hindsight.server')) {
        restartClient();
      }
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      // Workspace settings of hindsight.server.* apply from now on.
      restartClient();
    }),
  );
  await enqueue(startClient);
}

function deactivate() {
  return enqueue(stopClient);
}

module.exports = { activate, deactivate, resolveCommand };
