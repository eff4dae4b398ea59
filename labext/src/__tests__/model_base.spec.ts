import { errorText, ListModel, ModelBase } from '../model_base';
import { gate, tick } from './fakes';

/** A list whose fetch the test controls. */
class Numbers extends ListModel {
  fetches = 0;
  next: () => Promise<number[]> = async () => [1, 2];
  items: number[] = [];

  protected async fetch(): Promise<void> {
    this.fetches++;
    this.items = await this.next();
  }

  remove(key: string, action: () => Promise<string>): Promise<string | null> {
    return this.act(key, action);
  }
}

class Counter extends ModelBase<number> {
  set(value: number): void {
    this.emit(value);
  }
}

describe('ModelBase', () => {
  it('tells every listener, also after one failed', () => {
    const model = new Counter();
    const heard: number[] = [];
    const error = jest.spyOn(console, 'error').mockImplementation(() => {});
    model.onChange(() => {
      throw new Error('a broken view');
    });
    const stop = model.onChange(value => heard.push(value));
    model.set(1);
    stop();
    model.set(2);
    expect(heard).toEqual([1]);
    expect(error).toHaveBeenCalledTimes(2);
    error.mockRestore();
  });

  it('says why a request failed', () => {
    expect(errorText(new Error('Bad Gateway'))).toBe('Bad Gateway');
    expect(errorText('offline')).toBe('offline');
  });
});

describe('ListModel', () => {
  it('shares a refresh in flight and fetches once more after it', async () => {
    const model = new Numbers();
    const hold = gate();
    model.next = async () => {
      await hold.promise;
      return [3];
    };
    const first = model.refresh();
    const second = model.refresh();
    expect(second).toBe(first);
    hold.release();
    await first;
    await tick();
    expect(model.fetches).toBe(2);
    expect(model.items).toEqual([3]);
  });

  it('keeps a failed fetch as the error, and is loaded either way', async () => {
    const model = new Numbers();
    model.next = async () => {
      throw new Error('Bad Gateway');
    };
    await model.refresh();
    expect(model.loaded).toBe(true);
    expect(model.error).toBe('Bad Gateway');
    model.next = async () => [1];
    await model.refresh();
    expect(model.error).toBeNull();
  });

  it('refreshes on reconnect only once it was refreshed', async () => {
    const model = new Numbers();
    model.reconnected();
    expect(model.fetches).toBe(0);
    await model.refresh();
    model.reconnected();
    await tick();
    expect(model.fetches).toBe(2);
  });

  it('runs one action per key, keeps its failure, then refreshes', async () => {
    const model = new Numbers();
    const hold = gate();
    const done = model.remove('a', async () => {
      await hold.promise;
      throw new Error('gone');
    });
    expect(model.busy.has('a')).toBe(true);
    expect(await model.remove('a', async () => 'twice')).toBeNull();
    hold.release();
    expect(await done).toBeNull();
    expect(model.busy.size).toBe(0);
    expect(model.error).toBe('gone');
    expect(model.fetches).toBe(1);
    expect(await model.remove('a', async () => 'ok')).toBe('ok');
    expect(model.error).toBeNull();
  });
});
