// Served from the book's own site (see tools/fetch_static.py). It runs after require.js and
// before the widget manager, and
// - maps the widget modules to the files beside it, so that nothing is asked of a CDN and the
//   bundles' fonts (looked up next to the module's URL) are found;
// - gives ipywidgets' HTMLMath, written for MathJax 2, the MathJax.Hub.Queue it calls,
//   on top of the MathJax 3 that the pages load.
(function () {
  var here = document.currentScript.src.replace(/[?#].*$/, "").replace(/[^/]*$/, "");
  var hm = here + "html-manager/";
  window.requirejs.config({
    paths: {
      "@jupyter-widgets/html-manager/dist": hm.replace(/\/$/, ""),
      "@jupyter-widgets/html-manager": hm + "embed-amd",
      "@jupyter-widgets/base": hm + "base",
      "@jupyter-widgets/base7": hm + "base7",
      "@jupyter-widgets/controls": hm + "controls",
      "@jupyter-widgets/controls7": hm + "controls7",
      "jupyter-threejs": here + "jupyter-threejs/index"
    }
  });
  // The pages' MathJax 3 (configured by Sphinx) only reads \( \) and \[ \] inside elements
  // marked for processing; HTMLMath widgets use $ and $$, as in Jupyter.
  function typeset(el) {
    var mj = window.MathJax;
    if (!el || !mj) { return; }
    var go = function () {
      if (!window.MathJax.typesetPromise) { return; }
      el.classList.add("mathjax_process");
      el.innerHTML = el.innerHTML
        .replace(/\$\$([\s\S]+?)\$\$/g, "\\[$1\\]")
        .replace(/\$([^$]+?)\$/g, "\\($1\\)");
      window.MathJax.typesetPromise([el]).catch(function (e) { console.warn("MathJax:", e); });
    };
    var run = function () {                  // after MathJax (a deferred script) has started
      var m = window.MathJax;
      if (m && m.startup && m.startup.promise) { m.startup.promise.then(go); }
    };
    if (document.readyState === "complete") { run(); } else { window.addEventListener("load", run); }
  }
  function shim() {
    var mj = window.MathJax;
    if (mj && !mj.Hub) {
      mj.Hub = { Queue: function (job) { if (job && job[2]) { typeset(job[2]); } } };
    }
  }
  shim();
  document.addEventListener("DOMContentLoaded", shim);
  window.addEventListener("load", shim);
})();
