// The VS Code webview API as a test double: records every postMessage, keeps setState in memory, and records any
// Content-Security-Policy violation so the test can assert there were none. Loaded before dist/webview.js.
(function () {
  window.__posted = [];
  window.__violations = [];
  // Like VS Code, the saved state outlives a reload of the webview (a panel hidden and shown again): kept per tab.
  var kept = sessionStorage.getItem('spinlab-test-state');
  window.__state = kept ? JSON.parse(kept) : undefined;
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
        sessionStorage.setItem('spinlab-test-state', JSON.stringify(s));
      },
    };
  };
})();
