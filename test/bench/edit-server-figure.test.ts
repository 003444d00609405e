import * as assert from 'node:assert/strict';
import { editServerFigure } from '../../bench/session';

describe('bench: the server\'s edit times', () => {
  it('are complete when every planned edit reported its time', () => {
    assert.deepEqual(editServerFigure([1, 2, 3], 3, 3, undefined), { samples: [1, 2, 3], status: 'ok' });
  });

  it('say the budget cut them short', () => {
    assert.deepEqual(editServerFigure([1, 2], 2, 5, undefined), { samples: [1, 2], status: 'partial', note: '2 of 5 edits within the budget' });
  });

  it('say the server left some edits untimed, rather than blaming the budget', () => {
    assert.deepEqual(editServerFigure([1, 2], 3, 3, undefined), { samples: [1, 2], status: 'partial', note: "2 of 3 edits reported the server's time" });
  });

  it('carry the failure that stopped the edits', () => {
    assert.deepEqual(editServerFigure([1], 1, 3, 'edit: no answer within 1000 ms'), { samples: [1], status: 'partial', note: 'edit: no answer within 1000 ms' });
  });

  it('say why there are none', () => {
    assert.equal(editServerFigure([], 2, 3, undefined).status, 'n/a');
    assert.equal(editServerFigure([], 0, 3, 'x').status, 'skipped');
  });
});
