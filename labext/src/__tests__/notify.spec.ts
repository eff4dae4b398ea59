import { ServerEvents } from '../events';
import { INotice, noticeText, SuggestionNotifier } from '../notify';

function created(author: string, path: string, replayed = false) {
  return {
    type: 'suggestion',
    data: { action: 'created', suggestion: { author, path } },
    replayed
  };
}

describe('SuggestionNotifier', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('groups a burst into one notice per agent and document', () => {
    const events = new ServerEvents();
    const shown: INotice[][] = [];
    const notifier = new SuggestionNotifier(events, n => shown.push(n), 400);
    events.emit(created('claude', 'a.md'));
    events.emit(created('claude', 'a.md'));
    jest.advanceTimersByTime(300);
    events.emit(created('claude', 'a.md')); // still the same burst
    events.emit(created('cursor', 'a.md'));
    events.emit(created('claude', 'b.md'));
    expect(shown).toEqual([]);
    jest.advanceTimersByTime(400);
    expect(shown).toEqual([
      [
        { author: 'claude', path: 'a.md', count: 3 },
        { author: 'cursor', path: 'a.md', count: 1 },
        { author: 'claude', path: 'b.md', count: 1 }
      ]
    ]);
    notifier.dispose();
  });

  it('ignores replayed events, other actions and other types', () => {
    const events = new ServerEvents();
    const shown: INotice[][] = [];
    new SuggestionNotifier(events, n => shown.push(n), 10);
    events.emit(created('claude', 'a.md', true));
    events.emit({
      type: 'suggestion',
      data: { action: 'accepted', suggestion: { author: 'x', path: 'a.md' } }
    });
    events.emit({ type: 'checkpoint', data: { action: 'created' } });
    jest.advanceTimersByTime(50);
    expect(shown).toEqual([]);
  });

  it('stops after dispose', () => {
    const events = new ServerEvents();
    const shown: INotice[][] = [];
    const notifier = new SuggestionNotifier(events, n => shown.push(n), 10);
    events.emit(created('claude', 'a.md'));
    notifier.dispose();
    jest.advanceTimersByTime(50);
    events.emit(created('claude', 'a.md'));
    jest.advanceTimersByTime(50);
    expect(shown).toEqual([]);
  });
});

describe('noticeText', () => {
  it('names the agent, the count and the document', () => {
    expect(noticeText({ author: 'claude', path: 'a.md', count: 1 })).toBe(
      'claude suggests a change to a.md'
    );
    expect(noticeText({ author: '', path: 'a.md', count: 4 })).toBe(
      'An agent suggests 4 changes to a.md'
    );
  });
});
