// SPDX-License-Identifier: MIT
// The functions the WebAssembly imports from src/wasm.js beyond WASI's (js/build.sh passes this to emcc as a
// --js-library, so the linker knows them as imports of "env"; the bodies here are never run: wasm.js gives its own).
mergeInto(LibraryManager.library, {
  // src/glue.c: each event of a session's feed, as a record the layer reads during the call
  gdwjs_session_event: function (rec) {},
});
