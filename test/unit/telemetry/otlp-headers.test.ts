import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseOtlpHeaders } from '../../../extension/core/telemetry/otlp-headers';

test('OTLP headers: key=value pairs as OTEL_EXPORTER_OTLP_HEADERS, URL-decoded; bad input named', () => {
  assert.deepEqual(parseOtlpHeaders('Authorization=Bearer abc, x-tenant=team%2Ca'), {
    headers: { authorization: 'Bearer abc', 'x-tenant': 'team,a' },
  });
  assert.deepEqual(parseOtlpHeaders(''), { headers: {} });
  assert.ok('error' in parseOtlpHeaders('no-equals-sign'));
  assert.ok('error' in parseOtlpHeaders('bad name=1'));
  assert.ok('error' in parseOtlpHeaders('x=a%0Db'));
});
