import { SuggestionsModel } from '../suggestions';
import { fakeServer, suggestionRecord, tick } from './fakes';

const suggestion = suggestionRecord;

describe('rejections heard and undone', () => {
  it('tells listeners of a reject and a reject-all, and lists reopened ones again', async () => {
    let listed = [
      suggestion({ id: 's1' }),
      suggestion({ id: 's2', start: 10, end: 12 })
    ];
    const { request } = fakeServer({
      'GET suggestions?status=open&locate=true&context=2': () => ({
        suggestions: listed,
        count: listed.length,
        counts: {}
      }),
      'POST suggestions/s1/reject': () => {
        listed = listed.filter(s => s.id !== 's1');
        return suggestion({ id: 's1', status: 'rejected' });
      },
      'POST suggestions/reject-all': () => ({
        rejected: [suggestion({ id: 's2', status: 'rejected' })]
      }),
      'POST suggestions/s1/accept': () =>
        suggestion({ id: 's1', status: 'accepted' })
    });
    const model = new SuggestionsModel(request);
    await model.refresh();
    const heard: string[][] = [];
    const stop = model.onRejected(list => heard.push(list.map(s => s.id)));

    await model.reject('s1');
    expect(heard).toEqual([['s1']]);
    expect(model.groups[0].suggestions.map(s => s.id)).toEqual(['s2']);

    // Undone on the server before the panel's refresh dropped it: listed again.
    listed = [suggestion({ id: 's1' }), ...listed];
    model.reopened(['s1']);
    await tick();
    await tick();
    expect(model.groups[0].suggestions.map(s => s.id)).toEqual(['s1', 's2']);

    await model.rejectAll('a.md');
    expect(heard).toEqual([['s1'], ['s2']]);

    // An accept is no rejection; after the unsubscribe nothing is heard.
    await model.accept('s1');
    stop();
    await model.reject('s1').catch(() => null);
    expect(heard).toEqual([['s1'], ['s2']]);
  });
});
