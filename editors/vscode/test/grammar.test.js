// Tokenizes real Hindsight specifications with the extension's TextMate
// grammar (through vscode-textmate and the Oniguruma engine VS Code itself
// uses) and checks that given tokens get given scopes. Run: `npm test`.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const vsctm = require('vscode-textmate');
const oniguruma = require('vscode-oniguruma');

const EXTENSION = path.resolve(__dirname, '..');
const REPO = path.resolve(EXTENSION, '..', '..');
const GRAMMAR_PATH = path.join(EXTENSION, 'syntaxes', 'hindsight.tmLanguage.json');

let grammarPromise;

/** The grammar, loaded once. */
function grammar() {
  if (!grammarPromise) {
    grammarPromise = (async () => {
      const wasm = fs.readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
      await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
      const registry = new vsctm.Registry({
        onigLib: Promise.resolve({
          createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
          createOnigString: (text) => new oniguruma.OnigString(text),
        }),
        loadGrammar: async (scopeName) =>
          scopeName === 'source.hindsight'
            ? vsctm.parseRawGrammar(fs.readFileSync(GRAMMAR_PATH, 'utf8'), GRAMMAR_PATH)
            : null,
      });
      const loaded = await registry.loadGrammar('source.hindsight');
      assert.ok(loaded, 'the grammar source.hindsight loads');
      return loaded;
    })();
  }
  return grammarPromise;
}

/**
 * Tokenizes `text` line by line: every line's tokens (text, scopes) and the
 * rule stack after the last line.
 */
async function tokenize(text) {
  const g = await grammar();
  let state = vsctm.INITIAL;
  const lines = [];
  for (const line of text.split(/\r?\n/)) {
    const result = g.tokenizeLine(line, state);
    assert.equal(result.stoppedEarly, false, `tokenizing stopped early on: ${line}`);
    lines.push({
      text: line,
      tokens: result.tokens.map((t) => ({
        text: line.slice(t.startIndex, t.endIndex),
        start: t.startIndex,
        end: t.endIndex,
        scopes: t.scopes,
      })),
    });
    state = result.ruleStack;
  }
  return { lines, state };
}

async function tokenizeFile(relative) {
  return tokenize(fs.readFileSync(path.join(REPO, relative), 'utf8'));
}

function escapeRegExp(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The token of `word` (its `nth` occurrence, 0-based) on the first line that
 * contains `lineNeedle`. A word of identifier characters matches whole words
 * only. The token must be exactly `word`: a grammar that glued it to its
 * neighbours, or split it, fails here.
 */
function tokenOf(doc, lineNeedle, word, nth = 0) {
  const line = doc.lines.find((l) => l.text.includes(lineNeedle));
  assert.ok(line, `no line contains ${JSON.stringify(lineNeedle)}`);
  const pattern = /^\w+$/.test(word)
    ? new RegExp(`(?<![A-Za-z0-9_])${escapeRegExp(word)}(?![A-Za-z0-9_])`, 'g')
    : new RegExp(escapeRegExp(word), 'g');
  const starts = [...line.text.matchAll(pattern)].map((m) => m.index);
  assert.ok(nth < starts.length, `${JSON.stringify(word)} occurs ${starts.length} time(s) in: ${line.text}`);
  const start = starts[nth];
  const token = line.tokens.find((t) => t.start <= start && start < t.end);
  assert.ok(token, `no token at ${JSON.stringify(word)} in: ${line.text}`);
  assert.equal(
    token.text,
    word,
    `${JSON.stringify(word)} is not a token of its own in: ${line.text}\n(scopes: ${token.scopes.join(' ')})`,
  );
  return token;
}

/** Whether `scopes` holds `scope` or a scope below it (`keyword` covers `keyword.other.x`). */
function hasScope(scopes, scope) {
  return scopes.some((s) => s === scope || s.startsWith(`${scope}.`));
}

function expectScope(doc, lineNeedle, word, scope, nth = 0) {
  const token = tokenOf(doc, lineNeedle, word, nth);
  assert.ok(
    hasScope(token.scopes, scope),
    `${JSON.stringify(word)} in ${JSON.stringify(lineNeedle)} should be ${scope}, is: ${token.scopes.join(' ')}`,
  );
}

function expectNotScope(doc, lineNeedle, word, scope, nth = 0) {
  const token = tokenOf(doc, lineNeedle, word, nth);
  assert.ok(
    !hasScope(token.scopes, scope),
    `${JSON.stringify(word)} in ${JSON.stringify(lineNeedle)} should not be ${scope}, is: ${token.scopes.join(' ')}`,
  );
}

/**
 * Every token covering the `nth` occurrence of `text` on the first line that
 * contains `lineNeedle` has `scope`: for words inside a comment or a string,
 * which are part of a longer token.
 */
function expectInside(doc, lineNeedle, text, scope, nth = 0) {
  const line = doc.lines.find((l) => l.text.includes(lineNeedle));
  assert.ok(line, `no line contains ${JSON.stringify(lineNeedle)}`);
  let start = -1;
  for (let i = 0; i <= nth; i++) {
    start = line.text.indexOf(text, start + 1);
    assert.ok(start >= 0, `${JSON.stringify(text)} occurs fewer than ${nth + 1} time(s) in: ${line.text}`);
  }
  const end = start + text.length;
  const covering = line.tokens.filter((t) => t.start < end && start < t.end);
  assert.ok(covering.length > 0);
  for (const token of covering) {
    assert.ok(
      hasScope(token.scopes, scope),
      `${JSON.stringify(token.text)} (in ${JSON.stringify(text)}) should be ${scope}, is: ${token.scopes.join(' ')}`,
    );
  }
}

/** Every `.hind` file below `dir` (relative to the repository). */
function hindFiles(dir) {
  const out = [];
  const walk = (abs) => {
    for (const entry of fs.readdirSync(abs, { withFileTypes: true })) {
      const full = path.join(abs, entry.name);
      if (entry.isDirectory()) {
        walk(full);
      } else if (entry.name.endsWith('.hind')) {
        out.push(path.relative(REPO, full));
      }
    }
  };
  walk(path.join(REPO, dir));
  return out.sort();
}

test('package.json contributes the language, the grammar and the server settings', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(EXTENSION, 'package.json'), 'utf8'));
  const lang = pkg.contributes.languages.find((l) => l.id === 'hindsight');
  assert.ok(lang, 'language hindsight');
  assert.deepEqual(lang.extensions, ['.hind']);
  const raw = JSON.parse(fs.readFileSync(GRAMMAR_PATH, 'utf8'));
  const contributed = pkg.contributes.grammars.find((g) => g.language === 'hindsight');
  assert.equal(contributed.scopeName, 'source.hindsight');
  assert.equal(raw.scopeName, 'source.hindsight');
  assert.equal(path.resolve(EXTENSION, contributed.path), GRAMMAR_PATH);
  assert.ok(pkg.activationEvents.includes('onLanguage:hindsight'));
  const props = pkg.contributes.configuration.properties;
  assert.equal(props['hindsight.server.path'].default, 'hindsight');
  assert.deepEqual(props['hindsight.server.args'].default, []);

  const config = JSON.parse(fs.readFileSync(path.join(EXTENSION, lang.configuration), 'utf8'));
  assert.equal(config.comments.lineComment, '//');
  assert.deepEqual(config.comments.blockComment, ['/*', '*/']);
});

test('examples/code_review/review.hind: a system with lifelines, a group and guards', async () => {
  const doc = await tokenizeFile('examples/code_review/review.hind');

  // Comments.
  expectInside(doc, '// The code-review workflow', 'The code-review workflow', 'comment.line.double-slash.hindsight');
  expectScope(doc, '// The code-review workflow', '//', 'punctuation.definition.comment.hindsight');
  // Words in a comment are no keywords or names.
  expectInside(doc, '// Four lifelines exchange', 'lifelines', 'comment.line.double-slash.hindsight');

  // The enum.
  expectScope(doc, 'enum Status', 'enum', 'keyword.declaration.enum.hindsight');
  expectScope(doc, 'enum Status', 'Status', 'entity.name.type.enum.hindsight');
  expectScope(doc, 'enum Status', 'critical', 'variable.other.enummember.hindsight');

  // The system and its lifelines.
  expectScope(doc, 'system review {', 'system', 'keyword');
  expectScope(doc, 'system review {', 'system', 'keyword.declaration.system.hindsight');
  expectScope(doc, 'system review {', 'review', 'entity.name.type.system.hindsight');
  expectScope(doc, 'lifeline TestRunner', 'lifeline', 'keyword.declaration.lifeline.hindsight');
  expectScope(doc, 'lifeline TestRunner', 'TestRunner', 'entity.name.type.lifeline.hindsight');
  expectScope(doc, 'lifeline TestRunner', 'cand', 'entity.name.variable.field.hindsight');
  expectScope(doc, 'lifeline TestRunner', 'int', 'support.type.primitive.hindsight');
  expectScope(doc, 'lifeline TestRunner', 'Status', 'entity.name.type.enum.hindsight');

  // The group.
  expectScope(doc, 'group Reviewers', 'group', 'keyword.declaration.group.hindsight');
  expectScope(doc, 'group Reviewers', 'Reviewers', 'entity.name.type.group.hindsight');
  expectScope(doc, 'group Reviewers', 'Security', 'entity.name.type.lifeline.hindsight');

  // The guards: name, owner, formula.
  expectScope(doc, 'guard may_merge', 'guard', 'keyword.declaration.guard.hindsight');
  expectScope(doc, 'guard may_merge', 'may_merge', 'entity.name.function.guard.hindsight');
  expectScope(doc, 'guard may_merge', 'at', 'keyword.other.at.hindsight');
  expectScope(doc, 'guard may_merge', 'Committer', 'entity.name.type.lifeline.hindsight');
  expectScope(doc, 'guard failure_seen', 'failure_seen', 'entity.name.function.guard.hindsight');
  expectScope(doc, 'TestRunner.cand == cand', 'TestRunner', 'variable.other.object.hindsight');
  expectScope(doc, 'TestRunner.cand == cand', 'cand', 'variable.other.property.hindsight');
  expectScope(doc, 'TestRunner.cand == cand', '==', 'keyword.operator.comparison.hindsight');
  expectScope(doc, 'TestRunner.cand == cand', '&&', 'keyword.operator.logical.and.hindsight');

  // `@L (... S ...)`: the lifeline operator and Since.
  expectScope(doc, '&& @TestRunner (', '@', 'keyword.operator.temporal.at.hindsight');
  expectScope(doc, '&& @TestRunner (', 'TestRunner', 'entity.name.type.lifeline.hindsight');
  expectScope(doc, '&& @TestRunner (', 'S', 'keyword.operator.temporal');
  expectScope(doc, '&& @TestRunner (', 'S', 'keyword.operator.temporal.binary.past.hindsight');
  expectScope(doc, '&& @TestRunner (', '!=', 'keyword.operator.comparison.hindsight');
  expectScope(doc, '&& @TestRunner (', 'passed', 'variable.other.hindsight');
  expectScope(doc, '&& @Security', 'S', 'keyword.operator.temporal.binary.past.hindsight');

  // A quantifier over the group.
  expectScope(doc, 'exists r in Reviewers', 'exists', 'keyword.control.quantifier.exists.hindsight');
  expectScope(doc, 'exists r in Reviewers', 'r', 'variable.parameter.quantifier.hindsight');
  expectScope(doc, 'exists r in Reviewers', 'in', 'keyword.control.in.hindsight');
  expectScope(doc, 'exists r in Reviewers', 'Reviewers', 'entity.name.type.group.hindsight');
  expectScope(doc, 'exists r in Reviewers', '||', 'keyword.operator.logical.or.hindsight');
  expectScope(doc, 'exists r in Reviewers', '@', 'keyword.operator.temporal.at.hindsight');

  // Every block is closed at the end of the file.
  assert.equal(doc.state.depth, 1, 'the grammar is back at the top level after the last line');
});

test('examples/trucks/trucks.hind: a monitor with inputs, lets and past-time properties', async () => {
  const doc = await tokenizeFile('examples/trucks/trucks.hind');

  expectInside(doc, '// IPC-Trucks rules', 'rules', 'comment.line.double-slash.hindsight');
  expectScope(doc, 'enum Area', 'a2', 'variable.other.enummember.hindsight');
  expectScope(doc, 'monitor trucks', 'monitor', 'keyword.declaration.monitor.hindsight');
  expectScope(doc, 'monitor trucks', 'trucks', 'entity.name.type.monitor.hindsight');

  expectScope(doc, 'input action: Action;', 'input', 'keyword.declaration.input.hindsight');
  expectScope(doc, 'input action: Action;', 'action', 'entity.name.variable.input.hindsight');
  expectScope(doc, 'input action: Action;', 'Action', 'entity.name.type.enum.hindsight');
  expectScope(doc, 'input pkg: int;', 'int', 'support.type.primitive.hindsight');
  // A trailing comment after a member, with a number in it.
  expectInside(doc, 'input area: Area;', '// where the truck is', 'comment.line.double-slash.hindsight');
  expectInside(doc, 'input pkg: int;', '(0 if none)', 'comment.line.double-slash.hindsight');
  expectScope(doc, 'input pkg: int;', ';', 'punctuation.terminator.statement.hindsight');

  expectScope(doc, 'let loading =', 'let', 'keyword.declaration.let.hindsight');
  expectScope(doc, 'let loading =', 'loading', 'entity.name.variable.let.hindsight');
  expectScope(doc, 'let loading =', '=', 'keyword.operator.assignment.hindsight');
  expectScope(doc, 'let loading =', 'load', 'variable.other.hindsight');
  expectScope(doc, 'let loading =', ';', 'punctuation.terminator.statement.hindsight');

  expectScope(doc, 'property load_only_in_a1', 'property', 'keyword.declaration.property.hindsight');
  expectScope(doc, 'property load_only_in_a1', 'load_only_in_a1', 'entity.name.function.property.hindsight');
  expectScope(doc, 'property load_only_in_a1', '->', 'keyword.operator.logical.implies.hindsight');

  // `Y O loading`: two unary past operators; `!` negation.
  expectScope(doc, 'property load_at_most_once', 'Y', 'keyword.operator.temporal.unary.past.hindsight');
  expectScope(doc, 'property load_at_most_once', 'O', 'keyword.operator.temporal.unary.past.hindsight');
  expectScope(doc, 'property load_at_most_once', '!', 'keyword.operator.logical.not.hindsight');
  expectScope(doc, 'property load_at_most_once', 'loading', 'variable.other.hindsight', 1);

  // `!loading S unloaded_here`
  expectScope(doc, 'property deliver_after_unload', 'S', 'keyword.operator.temporal.binary.past.hindsight');
  expectNotScope(doc, 'property deliver_after_unload', 'unloaded_here', 'keyword');

  // `O[1,4]`: a bounded operator, its bound's numbers and punctuation.
  const bounded = 'property fuelled';
  expectScope(doc, bounded, 'O', 'keyword.operator.temporal.unary.past.hindsight');
  expectScope(doc, bounded, '[', 'punctuation.section.bound.begin.hindsight');
  expectScope(doc, bounded, '1', 'constant.numeric.integer.decimal.hindsight');
  expectScope(doc, bounded, '1', 'meta.bound.hindsight');
  expectScope(doc, bounded, ',', 'punctuation.separator.bound.hindsight');
  expectScope(doc, bounded, '4', 'constant.numeric.integer.decimal.hindsight');
  expectScope(doc, bounded, ']', 'punctuation.section.bound.end.hindsight');
  expectScope(doc, bounded, 'refuel', 'variable.other.hindsight');

  // A number outside a bound.
  expectScope(doc, 'pkg == 1)', '1', 'constant.numeric.integer.decimal.hindsight');

  assert.equal(doc.state.depth, 1, 'the grammar is back at the top level after the last line');
});

test('contextual keywords are names outside their place (tests/spec/pass/contextual_keywords.hind)', async () => {
  const doc = await tokenizeFile('tests/spec/pass/contextual_keywords.hind');

  // Member keywords used as names of inputs, lets, properties.
  expectScope(doc, 'input group: bool', 'input', 'keyword.declaration.input.hindsight');
  expectScope(doc, 'input group: bool', 'group', 'entity.name.variable.input.hindsight');
  expectScope(doc, 'input group: bool', 'from', 'keyword.other.from.hindsight');
  expectInside(doc, 'input group: bool', '"/group"', 'string.quoted.double.hindsight');
  expectScope(doc, 'input group: bool', 'default', 'keyword.other.default.hindsight');
  expectScope(doc, 'input group: bool', 'false', 'constant.language.boolean.hindsight');
  expectScope(doc, 'input lifeline: bool', 'present', 'keyword.other.present.hindsight');
  expectScope(doc, 'let guard = kind', 'guard', 'entity.name.variable.let.hindsight');
  expectScope(doc, 'property at = guard', 'at', 'entity.name.function.property.hindsight');
  expectScope(doc, 'property at = guard', 'guard', 'variable.other.hindsight');
  expectNotScope(doc, 'property at = guard', 'group', 'keyword');
  expectScope(doc, 'property from = O[0,0]', 'from', 'entity.name.function.property.hindsight');
  expectScope(doc, 'property from = O[0,0]', 'global', 'variable.other.hindsight');

  // ... and as names of lifelines, fields, groups, guards, populations.
  expectScope(doc, 'lifeline agent {', 'agent', 'entity.name.type.lifeline.hindsight');
  expectScope(doc, 'lifeline agent {', 'input', 'entity.name.variable.field.hindsight');
  expectScope(doc, 'lifeline agent {', 'steps', 'entity.name.variable.field.hindsight');
  expectScope(doc, 'lifeline where {', 'where', 'entity.name.type.lifeline.hindsight');
  expectScope(doc, 'group present =', 'present', 'entity.name.type.group.hindsight');
  expectScope(doc, 'guard initially at agent', 'initially', 'entity.name.function.guard.hindsight');
  expectScope(doc, 'guard initially at agent', 'agent', 'entity.name.type.lifeline.hindsight');
  expectScope(doc, 'guard initially at agent', 'present', 'entity.name.type.group.hindsight');
  expectScope(doc, 'population default', 'population', 'keyword.declaration.population.hindsight');
  expectScope(doc, 'population default', 'default', 'entity.name.type.population.hindsight');
  expectScope(doc, 'agent { group: bool', 'agent', 'keyword.declaration.agent.hindsight');
  expectScope(doc, 'agent { group: bool', 'group', 'entity.name.variable.field.hindsight');
  expectScope(doc, 'global { lifeline', 'global', 'keyword.declaration.global.hindsight');
  expectScope(doc, 'group agent = agents where group', 'agent', 'entity.name.type.group.hindsight');
  expectScope(doc, 'group agent = agents where group', 'where', 'keyword.other.where.hindsight');
  expectScope(doc, 'group agent = agents where group', 'group', 'variable.other.hindsight', 1);
  expectScope(doc, 'property input = forall', 'input', 'entity.name.function.property.hindsight');
  expectScope(doc, 'property input = forall', 'forall', 'keyword.control.quantifier.forall.hindsight');
  expectScope(doc, 'property input = forall', 'guard', 'variable.other.property.hindsight');
  assert.equal(doc.state.depth, 1);
});

test('operator letters as names where no operator can stand (tests/spec/pass/letters.hind)', async () => {
  const doc = await tokenizeFile('tests/spec/pass/letters.hind');

  expectScope(doc, 'enum F {', 'F', 'entity.name.type.enum.hindsight');
  expectScope(doc, 'lifeline W {', 'W', 'entity.name.type.lifeline.hindsight');
  expectScope(doc, 'lifeline W {', 'F', 'entity.name.type.enum.hindsight');
  expectScope(doc, 'group G = { W, O }', 'G', 'entity.name.type.group.hindsight');
  expectScope(doc, 'group G = { W, O }', 'O', 'entity.name.type.lifeline.hindsight');

  const guard = 'guard ok at O';
  expectScope(doc, guard, 'O', 'entity.name.type.lifeline.hindsight');
  expectScope(doc, guard, 'W', 'variable.other.object.hindsight'); // `W.x`
  expectNotScope(doc, guard, 'W', 'keyword.operator.temporal');
  expectScope(doc, guard, 'F', 'entity.name.type.enum.hindsight'); // `F::b`
  expectScope(doc, guard, '::', 'punctuation.separator.namespace.hindsight');
  expectScope(doc, guard, 'b', 'variable.other.enummember.hindsight');
  expectScope(doc, guard, 'W', 'entity.name.type.lifeline.hindsight', 2); // `@W`
  expectScope(doc, guard, 'O', 'keyword.operator.temporal.unary.past.hindsight', 1); // `O[0,3]`
  expectScope(doc, guard, '3', 'constant.numeric.integer.decimal.hindsight');

  expectScope(doc, 'capacity 8;', 'capacity', 'keyword.other.capacity.hindsight');
  expectScope(doc, 'capacity 8;', '8', 'constant.numeric.integer.decimal.hindsight');
  expectScope(doc, 'group U = agents', 'U', 'entity.name.type.group.hindsight');
  expectScope(doc, 'forall X in U', 'X', 'variable.parameter.quantifier.hindsight');
  expectScope(doc, 'forall X in U', 'U', 'entity.name.type.group.hindsight');
  expectNotScope(doc, 'forall X in U', 'U', 'keyword.operator.temporal');
  assert.equal(doc.state.depth, 1);
});

test('protocols: event types, `->`, `skip` and the trace operators (examples/protocols/abp.hind)', async () => {
  const doc = await tokenizeFile('examples/protocols/abp.hind');

  const rounds = 'protocol rounds =';
  expectScope(doc, rounds, 'protocol', 'keyword.declaration.protocol.hindsight');
  expectScope(doc, rounds, 'rounds', 'entity.name.function.protocol.hindsight');
  expectScope(doc, rounds, 'alice', 'entity.name.type.lifeline.hindsight');
  expectScope(doc, rounds, '->', 'keyword.operator.arrow.message.hindsight');
  expectNotScope(doc, rounds, '->', 'keyword.operator.logical');
  expectScope(doc, rounds, 'bob', 'entity.name.type.lifeline.hindsight');
  expectScope(doc, rounds, 'm1', 'entity.name.label.message.hindsight');
  expectScope(doc, rounds, '.', 'keyword.operator.protocol.concatenation.hindsight');
  expectScope(doc, rounds, '+', 'keyword.operator.protocol.choice.hindsight');
  expectScope(doc, rounds, 'skip', 'keyword.other.skip.hindsight');
  expectScope(doc, rounds, 'rounds', 'entity.name.function.protocol.hindsight', 1);

  expectScope(doc, '{alice -> bob: m1, carol', '>>', 'keyword.operator.protocol.filter.hindsight');
  expectScope(doc, '{alice -> bob: m1, carol', 'frank', 'entity.name.type.lifeline.hindsight');
  expectScope(doc, '& {alice -> bob: m1, bob', '&', 'keyword.operator.protocol.intersection.hindsight');
  expectScope(doc, '& {alice -> bob: m1, bob', 'ack1', 'entity.name.function.protocol.hindsight');
  assert.equal(doc.state.depth, 1);
});

test('timestamped monitors: `time`, `steps where`, duration bounds (examples/coding_agent/timing.hind)', async () => {
  const doc = await tokenizeFile('examples/coding_agent/timing.hind');

  expectScope(doc, 'time ts from', 'time', 'keyword.declaration.time.hindsight');
  expectScope(doc, 'time ts from', 'ts', 'entity.name.variable.time.hindsight');
  expectScope(doc, 'time ts from', 'from', 'keyword.other.from.hindsight');
  expectScope(doc, 'steps where', 'steps', 'keyword.other.steps.hindsight');
  expectScope(doc, 'steps where', 'where', 'keyword.other.where.hindsight');
  expectScope(doc, 'steps where', '"', 'punctuation.definition.string.begin.hindsight');
  expectScope(doc, 'steps where', '||', 'keyword.operator.logical.or.hindsight');
  expectScope(doc, 'input exit_code', '-', 'keyword.operator.arithmetic.hindsight');
  expectScope(doc, 'input exit_code', '1', 'constant.numeric.integer.decimal.hindsight');

  const answered = 'property answered';
  expectScope(doc, answered, 'G', 'keyword.operator.temporal.unary.future.hindsight');
  expectScope(doc, answered, 'F', 'keyword.operator.temporal.unary.future.hindsight');
  expectScope(doc, answered, '30s', 'constant.numeric.duration.hindsight');
  expectScope(doc, 'property tested_recently', '10min', 'constant.numeric.duration.hindsight');
  assert.equal(doc.state.depth, 1);
});

test('snippets: nested comments, strings, sessions, `with reset`, async protocols, errors', async () => {
  const doc = await tokenize(
    [
      '/* outer /* inner */ still comment */ enum E { a }',
      'monitor m {',
      '    input p: int from "/a\\u00e9\\n\\q" hold initially 3;',
      '    input e: E default a;',
      '    input s: E default E::a;',
      '    sessions end where "/event" == "shutdown" || present("/closed");',
      '    let w = 2.5e-3 < 1.5 && 3abc == 2;',
      '    property r = (p U[0,5] q) W z R y X v with reset;',
      '    property i = p <-> q & r;',
      '    goal g = H[2, inf] p;',
      '}',
      'system s {',
      '    lifeline a {}',
      '    lifeline b {}',
      '    protocol p async = send a -> b: m . receive a -> b: m ||| skip;',
      '}',
    ].join('\n'),
  );

  expectInside(doc, '/* outer', '/* outer /* inner */ still comment */', 'comment.block.hindsight');
  expectScope(doc, '/* outer', 'enum', 'keyword.declaration.enum.hindsight');

  const pointer = 'input p: int';
  expectScope(doc, pointer, '\\u00e9', 'constant.character.escape.hindsight');
  expectScope(doc, pointer, '\\n', 'constant.character.escape.hindsight');
  expectScope(doc, pointer, '\\q', 'invalid.illegal.unknown-escape.hindsight');
  expectScope(doc, pointer, 'hold', 'keyword.other.hold.hindsight');
  expectScope(doc, pointer, 'initially', 'keyword.other.initially.hindsight');
  expectScope(doc, pointer, '3', 'constant.numeric.integer.decimal.hindsight');
  expectScope(doc, 'input e: E default a', 'a', 'variable.other.enummember.hindsight');
  expectScope(doc, 'input s: E default E::a', 'a', 'variable.other.enummember.hindsight');

  expectScope(doc, 'sessions end where', 'sessions', 'keyword.other.sessions.hindsight');
  expectScope(doc, 'sessions end where', 'end', 'keyword.other.end.hindsight');
  expectScope(doc, 'sessions end where', 'present', 'keyword.other.present.hindsight');

  expectScope(doc, 'let w =', '2.5e-3', 'constant.numeric.float.hindsight');
  expectScope(doc, 'let w =', '1.5', 'constant.numeric.float.hindsight');
  expectScope(doc, 'let w =', '<', 'keyword.operator.comparison.hindsight');
  expectScope(doc, 'let w =', '3abc', 'invalid.illegal.number.hindsight');

  const future = 'property r =';
  expectScope(doc, future, 'U', 'keyword.operator.temporal.binary.future.hindsight');
  expectScope(doc, future, '5', 'constant.numeric.integer.decimal.hindsight');
  expectScope(doc, future, 'W', 'keyword.operator.temporal.binary.future.hindsight');
  expectScope(doc, future, 'R', 'keyword.operator.temporal.binary.future.hindsight');
  expectScope(doc, future, 'X', 'keyword.operator.temporal.unary.future.hindsight');
  expectScope(doc, future, 'with', 'keyword.other.with.hindsight');
  expectScope(doc, future, 'reset', 'keyword.other.reset.hindsight');
  expectScope(doc, 'property i =', '<->', 'keyword.operator.logical.iff.hindsight');
  // `&` is a protocol operator: in a formula it is an error.
  expectScope(doc, 'property i =', '&', 'invalid.illegal.operator.hindsight');
  expectScope(doc, 'goal g =', 'goal', 'keyword.declaration.goal.hindsight');
  expectScope(doc, 'goal g =', 'g', 'entity.name.function.goal.hindsight');
  expectScope(doc, 'goal g =', 'H', 'keyword.operator.temporal.unary.past.hindsight');
  expectScope(doc, 'goal g =', 'inf', 'constant.language.infinity.hindsight');

  const proto = 'protocol p async';
  expectScope(doc, proto, 'async', 'keyword.other.async.hindsight');
  expectScope(doc, proto, 'send', 'keyword.other.send.hindsight');
  expectScope(doc, proto, 'receive', 'keyword.other.receive.hindsight');
  expectScope(doc, proto, '|||', 'keyword.operator.protocol.shuffle.hindsight');
  expectScope(doc, proto, 'skip', 'keyword.other.skip.hindsight');
  assert.equal(doc.state.depth, 1);
});

test('every example and passing spec tokenizes without errors and closes its blocks', async () => {
  const files = [...hindFiles('examples'), ...hindFiles('tests/spec/pass')];
  assert.ok(files.length >= 10, `found only ${files.length} .hind files`);
  for (const file of files) {
    const doc = await tokenizeFile(file);
    for (const [i, line] of doc.lines.entries()) {
      for (const token of line.tokens) {
        assert.ok(
          !hasScope(token.scopes, 'invalid'),
          `${file}:${i + 1}: ${JSON.stringify(token.text)} is ${token.scopes.join(' ')}`,
        );
      }
    }
    assert.equal(doc.state.depth, 1, `${file}: a block is still open after the last line`);
  }
});
