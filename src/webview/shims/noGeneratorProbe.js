// Stands in for @stdlib/assert-has-generator-support in the panel's bundle: that probe calls Function('...'), which
// the panel's Content-Security-Policy (no unsafe-eval) blocks and reports as a violation. The statistics it serves
// (stdlib's continued fractions, under the Student-t quantile) take their other path, with the same results.
'use strict';

module.exports = function hasGeneratorSupport() {
  return false;
};
