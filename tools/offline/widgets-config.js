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
  function typeset(el) {
    var mj = window.MathJax;
    if (mj && mj.typesetPromise) {
      var go = function () { return mj.typesetPromise([el]).catch(function () {}); };
      if (mj.startup && mj.startup.promise) { mj.startup.promise.then(go); } else { go(); }
    }
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
