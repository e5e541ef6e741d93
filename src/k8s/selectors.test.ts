import { parseFieldSelector } from './field-selector';
import { parseLabelSelector } from './label-selector';
import { StatusError } from './status';

describe('label selectors', () => {
  const labels = { app: 'web', tier: 'front', n: '5' };
  it.each([
    ['app=web', true],
    ['app==web', true],
    ['app!=web', false],
    ['app!=db', true],
    ['missing!=x', true],
    ['app in (web, db)', true],
    ['app notin (web)', false],
    ['missing notin (web)', true],
    ['tier', true],
    ['!tier', false],
    ['!missing', true],
    ['app=web,tier=front', true],
    ['app=web,tier=back', false],
    ['n>4', true],
    ['n<4', false],
    ['app in ()', false],
  ])('%s → %s', (selector, matches) => {
    expect(parseLabelSelector(selector).matches(labels)).toBe(matches);
  });

  it('rejects malformed selectors with a 400', () => {
    for (const bad of ['app=', 'app in web', '=x', 'a b', 'app=web,', 'bad key!=x', 'k=v v']) {
      let err: unknown;
      try {
        parseLabelSelector(bad);
      } catch (e) {
        err = e;
      }
      // 'app=' is valid (empty value); the others are not.
      if (bad === 'app=') expect(err).toBeUndefined();
      else expect((err as StatusError).code).toBe(400);
    }
  });
});

describe('field selectors', () => {
  const get = (f: string) => ({ 'metadata.name': 'a,b', 'metadata.namespace': 'tx' })[f] ?? '';
  it('equality and inequality, with escapes', () => {
    expect(parseFieldSelector('metadata.name=a\\,b').matches(get)).toBe(true);
    expect(parseFieldSelector('metadata.namespace==tx,metadata.name!=x').matches(get)).toBe(true);
    expect(parseFieldSelector('metadata.namespace!=tx').matches(get)).toBe(false);
    expect(() => parseFieldSelector('metadata.name')).toThrow("invalid selector: 'metadata.name'; can't understand 'metadata.name'");
  });
});
