// Steps a Gnoming A Round replay: every drawing is in the data, this only swaps parts.
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("data").textContent);
  const frames = data.frames;
  if (!frames.length) return;
  const spots = Array.from(document.querySelectorAll("[data-part]"));
  spots.push(document.getElementById("status"), document.getElementById("scores"));
  const shown = spots.map(() => -1);
  const items = Array.from(document.querySelectorAll("#moves li[data-frame]"));
  const slider = document.getElementById("slider");
  const buttons = {};
  for (const id of ["first", "prev", "next", "last"]) buttons[id] = document.getElementById(id);
  let at = 0;

  const list = document.getElementById("moves");

  function keepInView(item) {
    // Scroll the move list only (scrollIntoView would scroll the page too).
    const top = item.offsetTop;
    if (top < list.scrollTop) list.scrollTop = top - 24;
    else if (top + item.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = top + item.offsetHeight - list.clientHeight + 24;
    }
  }

  function show(index) {
    at = Math.max(0, Math.min(frames.length - 1, index));
    const frame = frames[at];
    spots.forEach(function (spot, place) {
      if (shown[place] !== frame[place]) {
        spot.innerHTML = data.parts[frame[place]];
        shown[place] = frame[place];
      }
    });
    slider.value = String(at);
    items.forEach(function (item) {
      const current = Number(item.dataset.frame) === at;
      item.classList.toggle("current", current);
      if (current) item.setAttribute("aria-current", "step");
      else item.removeAttribute("aria-current");
    });
    const current = items[at];
    if (current) keepInView(current);
    buttons.first.disabled = buttons.prev.disabled = at === 0;
    buttons.next.disabled = buttons.last.disabled = at === frames.length - 1;
    document.body.dataset.frame = String(at);
  }

  buttons.first.addEventListener("click", function () { show(0); });
  buttons.prev.addEventListener("click", function () { show(at - 1); });
  buttons.next.addEventListener("click", function () { show(at + 1); });
  buttons.last.addEventListener("click", function () { show(frames.length - 1); });
  slider.addEventListener("input", function () { show(Number(slider.value)); });
  items.forEach(function (item) {
    item.addEventListener("click", function () { show(Number(item.dataset.frame)); });
  });
  const peek = document.getElementById("peek");  // the referee's view only
  if (peek) {
    peek.addEventListener("change", function (event) {
      document.getElementById("table").classList.toggle("hide-peeks", !event.target.checked);
    });
  }
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const steps = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: frames.length - 1 };
    if (!(event.key in steps)) return;
    event.preventDefault();
    show(steps[event.key]);
  });
  show(data.start);
})();
