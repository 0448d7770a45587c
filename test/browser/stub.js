// The VS Code webview API as a test double: records every postMessage, keeps setState in memory, and records any
// Content-Security-Policy violation so the test can assert there were none. Loaded before dist/webview.js.
(function () {
  window.__posted = [];
  window.__violations = [];
  window.__state = undefined;
  document.addEventListener('securitypolicyviolation', function (e) {
    window.__violations.push({
      directive: e.violatedDirective,
      blocked: e.blockedURI,
      sample: e.sample,
      source: e.sourceFile,
      line: e.lineNumber,
      column: e.columnNumber,
    });
  });
  window.acquireVsCodeApi = function () {
    return {
      postMessage: function (m) {
        window.__posted.push(JSON.parse(JSON.stringify(m)));
      },
      getState: function () {
        return window.__state;
      },
      setState: function (s) {
        window.__state = JSON.parse(JSON.stringify(s));
      },
    };
  };
})();
