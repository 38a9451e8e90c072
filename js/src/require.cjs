// SPDX-License-Identifier: MIT
// require('gdwire'): the package is an ES module (its WebAssembly is instantiated with a top-level await), which
// CommonJS's require cannot load. Say what to do instead of Node's ERR_REQUIRE_ESM.
'use strict';
const e = new Error(
  "gdwire is an ES module (its WebAssembly loads with a top-level await), so require('gdwire') cannot load it: " +
  "use `import * as gdwire from 'gdwire'`, or in CommonJS `const gdwire = await import('gdwire')`");
e.code = 'ERR_REQUIRE_ESM';
throw e;
