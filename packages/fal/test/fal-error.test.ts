import { explainStatus, formatFalDetail } from '@mocap/fal/internal';
import { describe, expect, it } from 'vitest';

describe('formatFalDetail', () => {
  it('lists Pydantic validation errors one per line with their field path', () => {
    expect(
      formatFalDetail({
        detail: [
          { loc: ['body', 'prompt'], msg: 'field required', type: 'value_error.missing' },
          { loc: ['body', 'loras', 0, 'scale'], msg: 'must be <= 4', type: 'x' },
        ],
      }),
    ).toBe('body.prompt: field required\nbody.loras.0.scale: must be <= 4');
  });

  it('takes a string detail, message or error, and plain text', () => {
    expect(formatFalDetail({ detail: 'Request not found' })).toBe('Request not found');
    expect(formatFalDetail({ message: 'nope' })).toBe('nope');
    expect(formatFalDetail('  <html>bad gateway</html> ')).toBe('<html>bad gateway</html>');
    expect(formatFalDetail(undefined)).toBe('');
  });
});

describe('explainStatus', () => {
  it('says what to do about a 401 and what a 422 means', () => {
    expect(explainStatus(401)).toContain('FAL_KEY');
    expect(explainStatus(422)).toContain('invalid');
    expect(explainStatus(503)).toContain('server error');
  });
});
