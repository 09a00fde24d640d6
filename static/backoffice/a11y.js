/* Screen readers read an icon font's ligature ("notification_important") as text. The admin's icons are
   decoration beside a visible name, so hide them from assistive technology, now and as parts load. */
(function () {
  var SELECTOR = ".material-symbols-outlined, .material-symbols-rounded, .material-icons";
  function hide(root) {
    if (!root || !root.querySelectorAll) return;
    if (root.matches && root.matches(SELECTOR)) root.setAttribute("aria-hidden", "true");
    root.querySelectorAll(SELECTOR).forEach(function (icon) { icon.setAttribute("aria-hidden", "true"); });
  }
  function start() {
    hide(document.body);
    new MutationObserver(function (changes) {
      changes.forEach(function (change) { change.addedNodes.forEach(hide); });
    }).observe(document.body, { childList: true, subtree: true });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
