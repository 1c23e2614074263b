const test = require('node:test');
const assert = require('node:assert/strict');
const { greet } = require('./greet');

test('greets by name', () => {
  assert.equal(greet('Ada'), 'Hello, Ada!');
});
