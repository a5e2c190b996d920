// What the app's server renderer needs from a browser-like global scope and the JavaScript engine
// lacks, and no more. Rendering reads none of it but the URL parts of the router; the rest is
// touched when modules load. Anything a render really uses that is not here fails loudly, and the
// server then serves the build's page for the browser to render afresh.
(function (g) {
  function missing(what) {
    throw new Error(what + ' is not available while the server renders pages');
  }
  g.self = g;
  g.console = {
    log: function () { g.__tribeLog('log', Array.prototype.join.call(arguments, ' ')); },
    info: function () { g.__tribeLog('info', Array.prototype.join.call(arguments, ' ')); },
    warn: function () { g.__tribeLog('warn', Array.prototype.join.call(arguments, ' ')); },
    error: function () { g.__tribeLog('error', Array.prototype.join.call(arguments, ' ')); },
  };
  // React's streaming renderer sets these up when its module loads; the string renderer the
  // server uses never calls them.
  g.MessageChannel = function () {
    this.port1 = {};
    this.port2 = { postMessage: function () { missing('MessageChannel'); } };
  };
  g.TextEncoder = function () {
    this.encode = function () { return new Uint8Array(0); };
  };
  g.setTimeout = function () { missing('setTimeout'); };
  g.clearTimeout = function () {};
  g.queueMicrotask = function (f) { Promise.resolve().then(f); };
  // Modules make date formats when they load; prerendered pages format no date (the 404 page
  // shows its time after hydration) and prices are formatted without Intl (content/format.ts).
  g.Intl = {
    DateTimeFormat: function () {
      this.format = function () { missing('Intl.DateTimeFormat'); };
      this.formatToParts = this.format;
      this.resolvedOptions = function () { return { timeZone: 'UTC' }; };
    },
    NumberFormat: function () {
      this.format = function () { missing('Intl.NumberFormat'); };
    },
  };

  var decode = function (s) { return decodeURIComponent(s.replace(/\+/g, ' ')); };
  var encode = function (s) { return encodeURIComponent(s).replace(/%20/g, '+'); };
  function URLSearchParams(init) {
    this._pairs = [];
    if (init instanceof URLSearchParams) {
      this._pairs = init._pairs.slice();
    } else if (typeof init === 'string') {
      var s = init.charAt(0) === '?' ? init.slice(1) : init;
      var parts = s === '' ? [] : s.split('&');
      for (var i = 0; i < parts.length; i++) {
        if (parts[i] === '') continue;
        var eq = parts[i].indexOf('=');
        this._pairs.push(eq < 0 ? [decode(parts[i]), ''] : [decode(parts[i].slice(0, eq)), decode(parts[i].slice(eq + 1))]);
      }
    } else if (init !== undefined && init !== null) {
      missing('URLSearchParams from ' + typeof init);
    }
  }
  URLSearchParams.prototype.get = function (k) {
    for (var i = 0; i < this._pairs.length; i++) if (this._pairs[i][0] === k) return this._pairs[i][1];
    return null;
  };
  URLSearchParams.prototype.getAll = function (k) {
    return this._pairs.filter(function (p) { return p[0] === k; }).map(function (p) { return p[1]; });
  };
  URLSearchParams.prototype.has = function (k) { return this.get(k) !== null; };
  URLSearchParams.prototype.toString = function () {
    return this._pairs.map(function (p) { return encode(p[0]) + '=' + encode(p[1]); }).join('&');
  };
  g.URLSearchParams = URLSearchParams;

  // Absolute http(s) URLs and paths against one; the router parses nothing else.
  var absolute = /^(https?:)\/\/([^/?#]*)([^?#]*)(\?[^#]*)?(#.*)?$/i;
  function URL(input, base) {
    var s = String(input);
    var m = absolute.exec(s);
    if (!m && base !== undefined && s.charAt(0) === '/' && s.charAt(1) !== '/') {
      var b = absolute.exec(String(base));
      if (b) m = absolute.exec(b[1] + '//' + b[2] + s);
    }
    if (!m) throw new TypeError('Invalid URL: ' + s);
    this.protocol = m[1].toLowerCase();
    this.host = m[2].toLowerCase();
    this.hostname = this.host.replace(/:\d+$/, '');
    this.pathname = m[3] === '' ? '/' : m[3];
    this.search = m[4] && m[4] !== '?' ? m[4] : '';
    this.hash = m[5] && m[5] !== '#' ? m[5] : '';
    this.origin = this.protocol + '//' + this.host;
    this.href = this.origin + this.pathname + this.search + this.hash;
    this.searchParams = new URLSearchParams(this.search);
  }
  URL.prototype.toString = function () { return this.href; };
  g.URL = URL;
})(globalThis);
