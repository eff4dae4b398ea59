import {
  backoffDelay,
  BridgeError,
  confirmText,
  errorResponse,
  filterCommands,
  helloMessage,
  IPresence,
  okResponse,
  parseServerMessage,
  plainData,
  presenceMessage,
  samePresence
} from '../bridge_protocol';
import { codePointOffset } from '../offsets';

describe('codePointOffset', () => {
  // "a😀b": 😀 is one code point but two UTF-16 units.
  const text = 'a😀b';

  it('counts code points where JavaScript counts UTF-16 units', () => {
    expect(text.length).toBe(4);
    expect(codePointOffset(text, 0)).toBe(0);
    expect(codePointOffset(text, 1)).toBe(1);
    expect(codePointOffset(text, 3)).toBe(2);
    expect(codePointOffset(text, 4)).toBe(3);
  });

  it('counts an offset inside a surrogate pair as the pair start', () => {
    expect(codePointOffset(text, 2)).toBe(1);
  });

  it('is the identity without astral characters and clamps', () => {
    expect(codePointOffset('héllo wörld', 7)).toBe(7);
    expect(codePointOffset(text, 99)).toBe(3);
    expect(codePointOffset(text, -5)).toBe(0);
  });

  it('counts a lone surrogate as one code point', () => {
    expect(codePointOffset('\ud83dx', 2)).toBe(2);
    expect(codePointOffset('x\ude00', 2)).toBe(2);
  });

  it('agrees with Array.from on mixed text', () => {
    const mixed = '# Title 😀\n\n𝒳 = ∑ 🎉🎉 end';
    for (let i = 0; i <= mixed.length; i++) {
      const pairStart =
        i > 0 &&
        /[\ud800-\udbff]/.test(mixed[i - 1]) &&
        /[\udc00-\udfff]/.test(mixed[i] ?? '');
      const expected = Array.from(mixed.slice(0, pairStart ? i - 1 : i)).length;
      expect(codePointOffset(mixed, i)).toBe(expected);
    }
  });
});

describe('backoffDelay', () => {
  const none = { base: 1000, max: 30000, jitter: 0 };

  it('doubles from the base up to the maximum', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 50].map(n => backoffDelay(n, none))).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000
    ]);
  });

  it('spreads each delay by the jitter', () => {
    const options = { base: 1000, max: 30000, jitter: 0.2 };
    expect(backoffDelay(0, options, () => 0)).toBe(800);
    expect(backoffDelay(0, options, () => 1)).toBe(1200);
    expect(backoffDelay(0, options, () => 0.5)).toBe(1000);
  });
});

describe('messages', () => {
  const presence: IPresence = {
    documents: [{ path: 'a.md', kind: 'markdown', dirty: true }],
    active: 'a.md',
    selection: { path: 'a.md', anchor: 3, head: 1 },
    focused: true,
    visible: true
  };

  it('builds hello and presence', () => {
    expect(helloMessage('c-1', 'UA', '4.6.6')).toEqual({
      type: 'hello',
      clientId: 'c-1',
      userAgent: 'UA',
      version: '4.6.6'
    });
    expect(presenceMessage(presence)).toEqual({
      type: 'presence',
      ...presence
    });
  });

  it('answers with plain data, or an error code and message', () => {
    expect(okResponse('r1', { path: 'a.md' })).toEqual({
      type: 'response',
      id: 'r1',
      ok: true,
      result: { path: 'a.md' }
    });
    expect(
      errorResponse('r2', new BridgeError('NOT_FOUND', 'no such file'))
    ).toEqual({
      type: 'response',
      id: 'r2',
      ok: false,
      error: { code: 'NOT_FOUND', message: 'no such file' }
    });
    expect(errorResponse('r3', new Error('boom'))).toMatchObject({
      error: { code: 'FAILED', message: 'boom' }
    });
    expect(errorResponse('r4', undefined)).toMatchObject({
      error: { code: 'FAILED' }
    });
  });

  it('parses what the server sends and refuses anything else', () => {
    expect(
      parseServerMessage(
        '{"type":"request","id":"r1","method":"openFile","params":{"path":"a.md"}}'
      )
    ).toEqual({
      type: 'request',
      id: 'r1',
      method: 'openFile',
      params: { path: 'a.md' }
    });
    expect(
      parseServerMessage('{"type":"request","id":"r1","method":"x"}')
    ).toMatchObject({ params: {} });
    expect(
      parseServerMessage(
        '{"type":"welcome","clientId":"c","window":"lab-1","serverVersion":"1"}'
      )
    ).toMatchObject({ window: 'lab-1' });
    expect(parseServerMessage('{"type":"cancel","id":"r1"}')).toEqual({
      type: 'cancel',
      id: 'r1'
    });
    for (const bad of [
      'not json',
      'null',
      '[]',
      '{"type":"request","method":"x"}',
      '{"type":"welcome"}',
      '{"type":"cancel"}',
      '{"type":"other"}'
    ]) {
      expect(parseServerMessage(bad)).toBeNull();
    }
  });

  it('tells a changed presence from the same one', () => {
    expect(samePresence(null, presence)).toBe(false);
    expect(samePresence({ ...presence }, presence)).toBe(true);
    expect(
      samePresence(presence, {
        ...presence,
        selection: { path: 'a.md', anchor: 3, head: 2 }
      })
    ).toBe(false);
  });
});

describe('plainData', () => {
  it('keeps plain JSON and drops what is not', () => {
    expect(plainData(undefined)).toBeNull();
    expect(plainData('text')).toBe('text');
    expect(plainData(3)).toBe(3);
    expect(plainData({ a: [1, 'b'] })).toEqual({ a: [1, 'b'] });
    class Widgetish {
      node = {};
    }
    expect(plainData(new Widgetish())).toBeNull();
    const cycle: any = {};
    cycle.self = cycle;
    expect(plainData(cycle)).toBeNull();
    expect(plainData({ big: 'x'.repeat(5000) })).toBeNull();
    expect((plainData('y'.repeat(5000)) as string).length).toBe(2000);
  });
});

describe('filterCommands', () => {
  const commands = [
    { id: 'help:about', label: 'About JupyterLab', caption: '' },
    {
      id: 'apputils:activate-command-palette',
      label: 'Activate Command Palette',
      caption: ''
    },
    { id: 'docmanager:open', label: '', caption: 'Open a file' }
  ];

  it('matches id or label in any case, sorted by id', () => {
    expect(filterCommands(commands, '').map(c => c.id)).toEqual([
      'apputils:activate-command-palette',
      'docmanager:open',
      'help:about'
    ]);
    expect(filterCommands(commands, 'PALETTE').map(c => c.id)).toEqual([
      'apputils:activate-command-palette'
    ]);
    expect(filterCommands(commands, 'about jupyter').map(c => c.id)).toEqual([
      'help:about'
    ]);
    expect(filterCommands(commands, 'nothing')).toEqual([]);
  });
});

describe('confirmText', () => {
  it('names the agent and the terminal command exactly', () => {
    const text = confirmText({
      agent: 'claude-code',
      action: 'terminal',
      command: 'echo hi && rm -rf build',
      timeoutSeconds: 60
    });
    expect(text.title).toBe('Allow terminal command?');
    expect(text.intro).toContain('claude-code');
    expect(text.code).toBe('echo hi && rm -rf build');
    expect(text.detail).toContain('60 s counts as Deny');
  });

  it('names the JupyterLab command, its label and arguments', () => {
    const text = confirmText(
      {
        agent: 'cursor',
        action: 'runCommand',
        command: 'docmanager:open',
        args: { path: 'a.md' }
      },
      'Open'
    );
    expect(text.title).toBe('Allow JupyterLab command?');
    expect(text.intro).toContain('cursor');
    expect(text.intro).toContain('“Open”');
    expect(text.code).toBe('docmanager:open with arguments {"path":"a.md"}');
    expect(confirmText({ command: 'x' }).intro).toContain('An agent');
  });

  it('names the notebook and the code an agent would run', () => {
    const text = confirmText({
      agent: 'claude-code',
      action: 'execute',
      command: 'import os\nos.listdir()',
      path: 'work/a.ipynb',
      timeoutSeconds: 60
    });
    expect(text.title).toBe('Allow running code?');
    expect(text.intro).toContain('claude-code');
    expect(text.intro).toContain('“work/a.ipynb”');
    expect(text.code).toBe('import os\nos.listdir()');
    expect(text.detail).toContain('60 s counts as Deny');
    const restart = confirmText({
      action: 'kernel',
      command: 'restart',
      path: 'a.ipynb'
    });
    expect(restart.title).toBe('Allow kernel restart?');
    expect(restart.detail).toContain('variables are lost');
  });
});
