/* One-click moves that cannot be undone ask first: a submit button with data-confirm="question" submits only
   when the person says OK (closing a SAR, recording the FIU's acceptance). A static file: the CSP allows no
   inline script. Listening in the capture phase, so the click is stopped before any other handler sees it. */
(function () {
  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("[data-confirm]") : null;
    if (button && !window.confirm(button.getAttribute("data-confirm"))) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  }, true);
})();
