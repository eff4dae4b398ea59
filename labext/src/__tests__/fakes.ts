/**
 * What the specs share: a fake REST client answering from a route table, the
 * errors requestAPI throws, and ways to let promises run.
 */
import type { ISuggestion } from '../api_types';
import type { Request } from '../request';

/** One request the fake server received. */
export interface ICall {
  endPoint: string;
  method: string;
  /** The decoded JSON body, if any. */
  body: any;
}

/**
 * A fake requester: records the calls and answers from `routes`, keyed
 * `"<METHOD> <endPoint>"` (a route may throw, or wait); an unknown route
 * fails with "no route for ...".
 */
export function fakeServer(routes: Record<string, (call: ICall) => any>): {
  request: Request;
  calls: ICall[];
} {
  const calls: ICall[] = [];
  const request = (async (endPoint: string, init: RequestInit = {}) => {
    const call: ICall = {
      endPoint,
      method: init.method ?? 'GET',
      body: init.body ? JSON.parse(init.body as string) : undefined
    };
    calls.push(call);
    const route = routes[`${call.method} ${endPoint}`];
    if (!route) {
      throw new Error(`no route for ${call.method} ${endPoint}`);
    }
    return route(call);
  }) as Request;
  return { request, calls };
}

/** An error as requestAPI throws it: the message and the HTTP response. */
export function responseError(status: number, message: string): Error {
  return Object.assign(new Error(message), { response: { status } });
}

/** A promise the test resolves when it wants (e.g. to hold an answer). */
export function gate(): { promise: Promise<void>; release: () => void } {
  let release!: () => void;
  const promise = new Promise<void>(resolve => (release = resolve));
  return { promise, release };
}

/** Let timers of 0 ms and pending promises run. */
export function tick(): Promise<unknown> {
  return new Promise(resolve => setTimeout(resolve, 0));
}

/** A pending suggestion record as the REST API lists it; `over` sets any field. */
export function suggestionRecord(over: Partial<ISuggestion> = {}): ISuggestion {
  return {
    id: 's1',
    path: 'a.md',
    kind: 'replace',
    start: 0,
    end: 5,
    original: 'hello',
    new: 'hi',
    baseRevision: 'rev-0',
    author: 'agent',
    user: 'me',
    session: 'session-1',
    rationale: '',
    operation: 'anchored',
    group: null,
    created: 1,
    status: 'pending',
    decided: null,
    decidedBy: null,
    resultRevision: null,
    reason: null,
    lineStart: 1,
    lineEnd: 1,
    ...over
  };
}
