import {
  BOARD_APP,
  BOARD_SOURCE,
  boardUrl,
  ensureBoardApp,
  Fetch
} from '../board_link';

/** A fake fetch: records the calls, answers each with the next status. */
function fakeFetch(...statuses: number[]): {
  fetch: Fetch;
  calls: { url: string; method: string; body: any }[];
} {
  const calls: { url: string; method: string; body: any }[] = [];
  const fetch = (async (url: string, init: RequestInit = {}) => {
    calls.push({
      url,
      method: init.method ?? 'GET',
      body: init.body ? JSON.parse(init.body as string) : undefined
    });
    const status = statuses.shift() ?? 500;
    return {
      ok: status < 400,
      status,
      statusText: String(status),
      text: async () => '',
      json: async () => ({}),
      headers: new Map()
    } as unknown as Response;
  }) as Fetch;
  return { fetch, calls };
}

describe('boardUrl', () => {
  it('is the app under Panel’s render route, below the base URL', () => {
    expect(boardUrl('/user/ann/')).toBe(
      `/user/ann/panel-preview/render/${BOARD_APP}`
    );
    expect(boardUrl('http://127.0.0.1:8888/')).toBe(
      `http://127.0.0.1:8888/panel-preview/render/${BOARD_APP}`
    );
  });
});

describe('ensureBoardApp', () => {
  it('leaves an existing app file as it is', async () => {
    const { fetch, calls } = fakeFetch(200);
    await ensureBoardApp(fetch, '/base/');
    expect(calls).toEqual([
      {
        url: `/base/api/contents/${BOARD_APP}?content=0`,
        method: 'GET',
        body: undefined
      }
    ]);
  });

  it('writes the app file when it is missing', async () => {
    const { fetch, calls } = fakeFetch(404, 201);
    await ensureBoardApp(fetch, '/base/');
    expect(calls[1]).toEqual({
      url: `/base/api/contents/${BOARD_APP}`,
      method: 'PUT',
      body: { type: 'file', format: 'text', content: BOARD_SOURCE }
    });
    expect(BOARD_SOURCE).toContain('from kernel_tools.board_app import main');
  });

  it('fails when the contents API refuses', async () => {
    await expect(ensureBoardApp(fakeFetch(403).fetch, '/')).rejects.toThrow();
    await expect(
      ensureBoardApp(fakeFetch(404, 403).fetch, '/')
    ).rejects.toThrow();
  });
});
