// Progressive enhancement only: every page works without this file.
"use strict";

// Counts down to a request's expiry. The server's clock is the truth: the
// offset between it and this device's clock is taken from the page.
function countdowns() {
  for (const el of document.querySelectorAll(".countdown[data-expires-ms]")) {
    const expires = Number(el.dataset.expiresMs);
    const offset = Number(el.dataset.nowMs) - Date.now();
    const tick = () => {
      const left = Math.max(0, expires - (Date.now() + offset));
      if (left === 0) {
        el.textContent = "expired: reload the page";
        for (const b of document.querySelectorAll("form button")) b.disabled = true;
        return;
      }
      const s = Math.floor(left / 1000);
      const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
      el.textContent = (h ? h + " h " : "") + (h || m ? m + " min " : "") + sec + " s left";
      setTimeout(tick, 1000);
    };
    tick();
  }
}

document.addEventListener("DOMContentLoaded", countdowns);

// Reloads the page when what it shows has changed (its stamp URL answers
// something new), unless the operator is filling in a form on it.
function live() {
  const el = document.getElementById("live");
  if (!el) return;
  const url = el.dataset.stampUrl;
  // The stamp of what the page shows, from the page itself: a first look
  // that fails or comes late must not take a newer stamp as the page's.
  let last = el.dataset.stamp ?? null;
  const look = async () => {
    try {
      const answer = await fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } });
      if (answer.ok) {
        const { stamp } = await answer.json();
        const busy = document.activeElement && document.activeElement.closest("form");
        if (last !== null && stamp !== last && !busy) {
          location.reload();
          return;
        }
        last = stamp;
      }
    } catch (_) {
      // The server may be restarting: look again at the next beat.
    }
    setTimeout(look, 2000);
  };
  look();
}

document.addEventListener("DOMContentLoaded", live);
