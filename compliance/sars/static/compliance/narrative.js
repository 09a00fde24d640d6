// The SAR narrative editor: the prompts follow the activity type, and "Insert the template" works without a
// round trip. Without script the same button posts and the server inserts the template.
(function () {
  "use strict";
  function ready(fn) {
    if (document.readyState !== "loading") fn(); else document.addEventListener("DOMContentLoaded", fn);
  }
  ready(function () {
    var form = document.getElementById("sar-draft-form");
    var data = document.getElementById("narrative-templates");
    if (!form || !data) return;
    var templates = JSON.parse(data.textContent);
    var type = form.querySelector("[name=suspicious_activity_type]");
    var text = form.querySelector("[name=activity_description]");
    var insert = form.querySelector("[data-testid=insert-template]");
    var count = document.getElementById("prompt-count");
    var prompt = /\[[^\[\]\n]{3,}\]/g;

    function showPrompts() {
      form.querySelectorAll("[data-prompts-for]").forEach(function (list) {
        list.hidden = list.getAttribute("data-prompts-for") !== type.value;
      });
    }
    function countPrompts() {
      var open = (text.value.match(prompt) || []).length;
      count.textContent = open ? open + " prompt(s) still to answer, marked [ ... ]" : "";
    }
    type.addEventListener("change", showPrompts);
    text.addEventListener("input", countPrompts);
    insert.addEventListener("click", function (event) {
      event.preventDefault();
      var template = templates[type.value] || "";
      var current = text.value.replace(/\s+$/, "");
      text.value = current ? current + "\n\n" + template : template;
      text.focus();
      countPrompts();
    });
    showPrompts();
    countPrompts();
  });
})();
