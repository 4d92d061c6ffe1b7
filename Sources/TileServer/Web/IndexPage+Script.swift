extension IndexPage {
    /// The page's script: a Leaflet map per card (or still tiles without Leaflet), the variable
    /// selectors, the copy buttons, and `window.tilelayerStatus` — tiles requested, loaded and
    /// failed per layer — which `scripts/test-browser.sh` reads (`?selftest` also prints it).
    static let script = #"""
    (function () {
      "use strict";
      var status = window.tilelayerStatus = {mode: window.L ? "leaflet" : "image", ready: false, layers: {}, errors: []};
      window.addEventListener("error", function (event) {
        var target = event.target;
        status.errors.push(target && target !== window ? "failed to load " + (target.src || target.href) : String(event.message));
      }, true);
      var selftest = /[?&]selftest\b/.test(location.search);

      function settle() {
        var names = Object.keys(status.layers);
        status.ready = names.every(function (name) { return status.layers[name].done; });
        if (status.ready && selftest) {
          var pre = document.getElementById("status") || document.body.appendChild(document.createElement("pre"));
          pre.id = "status";
          pre.textContent = "selftest " + JSON.stringify(status);
        }
      }

      function query(card) {
        var parts = [];
        card.querySelectorAll("[data-variable]").forEach(function (input) {
          parts.push(encodeURIComponent(input.getAttribute("data-variable")) + "=" + encodeURIComponent(input.value));
        });
        return parts.length ? "?" + parts.join("&") : "";
      }

      function leafletPreview(element, card, state) {
        var data = element.dataset;
        var b = data.bounds.split(",").map(Number);
        var bounds = L.latLngBounds([b[1], b[0]], [b[3], b[2]]);
        var world = data.world === "true";
        var map = L.map(element, {
          minZoom: +data.minZoom, maxZoom: +data.maxZoom, zoomSnap: 1, scrollWheelZoom: false,
          maxBounds: world ? null : bounds.pad(0.5), maxBoundsViscosity: 0.9
        });
        map.on("focus", function () { map.scrollWheelZoom.enable(); });
        map.on("blur", function () { map.scrollWheelZoom.disable(); });
        map.fitBounds(bounds);
        var attribution = card.querySelector(".attribution");
        var layer = L.tileLayer(data.tiles + data.query, {
          minZoom: +data.minZoom, maxZoom: +data.maxZoom, bounds: world ? null : bounds,
          attribution: attribution ? attribution.innerHTML : ""
        });
        layer.on("tileloadstart", function () { state.requested++; });
        layer.on("tileload", function () { state.loaded++; });
        layer.on("tileerror", function (event) {
          state.errors++;
          status.errors.push("tile failed: " + (event.tile && event.tile.src));
        });
        layer.on("load", function () { state.done = true; settle(); });
        layer.addTo(map);
        state.url = data.tiles + data.query;
        return function (suffix) {
          var url = data.tiles + suffix;
          if (url === state.url) return;
          state.url = url;
          state.done = false;
          status.ready = false;
          layer.setUrl(url);
        };
      }

      function stillPreview(image, state) {
        var pending = true;  // one count per picture: "complete" can be true before "load" fires
        function finished(ok) {
          if (!pending) return;
          pending = false;
          if (ok) { state.loaded++; } else { state.errors++; status.errors.push("tile failed: " + image.src); }
          state.done = true;
          settle();
        }
        image.addEventListener("load", function () { finished(true); });
        image.addEventListener("error", function () { finished(false); });
        state.requested = 1;
        state.url = image.getAttribute("src");
        if (image.complete) { finished(image.naturalWidth > 0); }
        return function (suffix) {
          var tile = image.getAttribute("data-tile");
          var ext = image.getAttribute("data-ext") || ".png";
          state.url = tile + ext + suffix;
          state.done = false;
          status.ready = false;
          state.requested++;
          pending = true;
          if (image.getAttribute("data-retina")) { image.srcset = tile + "@2x" + ext + suffix + " 2x"; }
          image.src = state.url;
        };
      }

      document.querySelectorAll(".card[data-layer]").forEach(function (card) {
        var state = status.layers[card.getAttribute("data-layer")] = {requested: 0, loaded: 0, errors: 0, done: false, url: ""};
        var map = card.querySelector(".map");
        var image = card.querySelector(".still img");
        var apply = map && window.L ? leafletPreview(map, card, state) : image ? stillPreview(image, state) : null;
        if (!apply) { state.done = true; }
        var template = card.querySelector("code.template");
        card.querySelectorAll("[data-variable]").forEach(function (input) {
          input.addEventListener("change", function () {
            var suffix = query(card);
            if (template) { template.textContent = template.getAttribute("data-base") + suffix; }
            if (apply) { apply(suffix); }
          });
        });
        var button = card.querySelector("button.copy");
        if (button && template) {
          button.addEventListener("click", function () {
            var selection = window.getSelection();
            selection.selectAllChildren(template);
            var copied = navigator.clipboard && window.isSecureContext
              ? navigator.clipboard.writeText(template.textContent) : Promise.resolve(document.execCommand("copy"));
            copied.then(function () {
              button.textContent = "Copied";
              button.classList.add("done");
              setTimeout(function () { button.textContent = "Copy"; button.classList.remove("done"); }, 1500);
            }, function () { button.textContent = "Select + Ctrl-C"; });
          });
        }
      });
      settle();
    })();
    """#
}
