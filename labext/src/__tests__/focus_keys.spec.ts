import { focusTarget } from '../focus_keys';

/** A control as the decision sees it: a name, and whether it can take the focus. */
interface IControl {
  name: string;
  enabled: boolean;
}

const control = (name: string, enabled = true): IControl => ({
  name,
  enabled
});
const enabled = (c: IControl): boolean => c.enabled;

describe('focusTarget', () => {
  const list = control('list');
  const heading = control('heading');
  const redrawn: [string, IControl][] = [
    ['s1:more', control('s1 Show less')],
    ['s2:accept', control('s2 Accept')],
    ['s2:reject', control('s2 Reject')],
    ['path:a.md:accept-all', control('a.md Accept all', false)]
  ];

  it('finds the control with the same key in the new DOM', () => {
    expect(focusTarget('s2:accept', redrawn, [list], enabled)?.name).toBe(
      's2 Accept'
    );
    expect(focusTarget('s1:more', redrawn, [list], enabled)?.name).toBe(
      's1 Show less'
    );
  });

  it('falls back when the control is gone (its card was decided)', () => {
    expect(focusTarget('s3:accept', redrawn, [list, heading], enabled)).toBe(
      list
    );
  });

  it('falls back when the control cannot take the focus (busy)', () => {
    expect(focusTarget('path:a.md:accept-all', redrawn, [list], enabled)).toBe(
      list
    );
  });

  it('takes the first fallback that can take the focus (the list is hidden)', () => {
    const hidden = control('list', false);
    expect(focusTarget('s3:accept', redrawn, [hidden, heading], enabled)).toBe(
      heading
    );
    expect(focusTarget('s3:accept', redrawn, [hidden], enabled)).toBeNull();
  });

  it('goes to a fallback for a focused element without a key', () => {
    expect(focusTarget(undefined, redrawn, [list], enabled)).toBe(list);
  });
});
