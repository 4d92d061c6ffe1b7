#!/usr/bin/env python3
"""Drives headless Chromium over the DevTools protocol (standard library only) against a running
tilelayer: loads the front page, waits until every layer preview has loaded its tiles, switches
every URL variable, repeats on a 2x (Retina) screen, checks the server's access log, saves
screenshots, and prints 'N passed, N failed'. Exit status 0 only when nothing failed."""

import argparse
import base64
import json
import os
import re
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

TILE_PATH = re.compile(r"/([a-z][a-z0-9_-]*)/(\d+)/(\d+)/(\d+)(@2x)?\.png")


class WebSocket:
    """A minimal RFC 6455 client: text frames out (masked), frames in, enough for DevTools."""

    def __init__(self, url, timeout):
        parts = urllib.parse.urlparse(url)
        self.sock = socket.create_connection((parts.hostname, parts.port), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET {parts.path} HTTP/1.1\r\nHost: {parts.hostname}:{parts.port}\r\n"
                           f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                           "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            self._fill()
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        if b" 101 " not in head.split(b"\r\n", 1)[0]:
            raise RuntimeError(f"DevTools refused the WebSocket: {head[:200]!r}")

    def _fill(self):
        chunk = self.sock.recv(1 << 16)
        if not chunk:
            raise ConnectionError("DevTools closed the connection")
        self.buffer += chunk

    def _take(self, count):
        while len(self.buffer) < count:
            self._fill()
        out, self.buffer = self.buffer[:count], self.buffer[count:]
        return out

    def send(self, text):
        payload = text.encode()
        header = bytearray([0x81])
        if len(payload) < 126:
            header.append(0x80 | len(payload))
        elif len(payload) < 1 << 16:
            header.append(0x80 | 126)
            header += struct.pack(">H", len(payload))
        else:
            header.append(0x80 | 127)
            header += struct.pack(">Q", len(payload))
        mask = os.urandom(4)
        repeated = (mask * (len(payload) // 4 + 1))[:len(payload)]
        body = (int.from_bytes(payload, "big") ^ int.from_bytes(repeated, "big")).to_bytes(len(payload), "big")
        self.sock.sendall(bytes(header) + mask + body)

    def receive(self):
        message = b""
        while True:
            first, second = self._take(2)
            length = second & 0x7F
            if length == 126:
                length = struct.unpack(">H", self._take(2))[0]
            elif length == 127:
                length = struct.unpack(">Q", self._take(8))[0]
            mask = self._take(4) if second & 0x80 else None
            data = self._take(length)
            if mask:
                data = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
            opcode = first & 0x0F
            if opcode == 8:
                raise ConnectionError("DevTools closed the WebSocket")
            if opcode in (9, 10):  # ping/pong: DevTools does not ping; ignore either
                continue
            message += data
            if first & 0x80:
                return message.decode()


class DevTools:
    """Calls DevTools methods and records the page's network and console events."""

    def __init__(self, socket_url, origin):
        self.ws = WebSocket(socket_url, timeout=30)
        self.origin = origin
        self.next_id = 0
        self.requests = {}        # requestId -> url
        self.urls = []            # every URL requested, in order
        self.problems = []        # network and console errors
        self.canceled = []

    def call(self, method, **params):
        self.next_id += 1
        ident = self.next_id
        self.ws.send(json.dumps({"id": ident, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.receive())
            if message.get("id") == ident:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            self.event(message.get("method"), message.get("params", {}))

    def event(self, method, params):
        if method == "Network.requestWillBeSent":
            url = params["request"]["url"]
            if not url.startswith("data:"):
                self.requests[params["requestId"]] = url
                self.urls.append(url)
                if not url.startswith(self.origin + "/"):
                    self.problems.append(f"request outside tilelayer: {url}")
        elif method == "Network.responseReceived":
            response = params["response"]
            if response["status"] >= 400 and not response["url"].startswith("data:"):
                self.problems.append(f"HTTP {response['status']} for {response['url']}")
        elif method == "Network.loadingFailed":
            url = self.requests.get(params["requestId"], "?")
            if params.get("canceled"):
                self.canceled.append(url)
            else:
                self.problems.append(f"network error {params.get('errorText')} for {url}")
        elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            text = " ".join(str(arg.get("value", arg.get("description", ""))) for arg in params.get("args", []))
            self.problems.append(f"console.{params['type']}: {text}")
        elif method == "Runtime.exceptionThrown":
            details = params["exceptionDetails"]
            self.problems.append(f"exception: {details.get('exception', {}).get('description') or details.get('text')}")
        elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
            entry = params["entry"]
            self.problems.append(f"console: {entry.get('text')} ({entry.get('url', '')})")

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"page script failed: {result['exceptionDetails'].get('text')}")
        return result["result"].get("value")

    def status(self):
        text = self.evaluate("JSON.stringify(window.tilelayerStatus || null)")
        return json.loads(text) if text else None

    def wait_ready(self, seconds):
        """The page's status once every preview settled, or the last status seen at the deadline."""
        deadline = time.monotonic() + seconds
        status = None
        while time.monotonic() < deadline:
            status = self.status()
            if status and status.get("ready"):
                time.sleep(0.3)  # let late console messages arrive
                return self.status(), True
            time.sleep(0.2)
        return status, False

    def screenshot(self, path):
        metrics = self.call("Page.getLayoutMetrics")
        size = metrics.get("cssContentSize") or metrics["contentSize"]
        clip = {"x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1}
        data = self.call("Page.captureScreenshot", format="png", clip=clip, captureBeyondViewport=True)["data"]
        with open(path, "wb") as file:
            file.write(base64.b64decode(data))


class Report:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, ok, name, detail=""):
        if ok:
            self.passed += 1
            print(f"  ok    {name}")
        else:
            self.failed += 1
            print(f"  FAIL  {name}" + (f": {detail}" if detail else ""))
        return ok


def start_chromium(binary, profile):
    command = [binary, "--headless=new", "--remote-debugging-port=0", f"--user-data-dir={profile}",
               "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
               "--disable-extensions", "--disable-background-networking", "--disable-component-update",
               "--disable-sync", "--disable-default-apps", "--disable-features=Translate,MediaRouter,OptimizationHints",
               "--hide-scrollbars", "--mute-audio", "--window-size=1280,900", "about:blank"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    port_file = os.path.join(profile, "DevToolsActivePort")
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if os.path.exists(port_file):
            lines = open(port_file).read().split()
            if len(lines) >= 2:
                return process, int(lines[0])
        if process.poll() is not None:
            raise RuntimeError(f"chromium exited with status {process.returncode}")
        time.sleep(0.1)
    process.kill()
    raise RuntimeError("chromium did not open its DevTools port within 30 s")


def page_socket(port):
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=5) as answer:
            for target in json.load(answer):
                if target.get("type") == "page" and "webSocketDebuggerUrl" in target:
                    return target["webSocketDebuggerUrl"]
        time.sleep(0.2)
    raise RuntimeError("no page target in chromium")


def load(tools, url, scale, report, label, seconds):
    """Opens `url` at device scale `scale`; checks every preview. Returns the final status."""
    tools.call("Emulation.setDeviceMetricsOverride", width=1280, height=900, deviceScaleFactor=scale, mobile=False)
    first = len(tools.urls)
    problems = len(tools.problems)
    tools.call("Page.navigate", url=url)
    status, settled = tools.wait_ready(seconds)
    report.check(settled, f"{label}: every preview settled within {seconds} s",
                 json.dumps(status)[:600] if status else "window.tilelayerStatus never appeared")
    layers = (status or {}).get("layers", {})
    report.check(bool(layers), f"{label}: the page lists layers", "none found")
    for name, state in sorted(layers.items()):
        report.check(state["done"] and state["loaded"] > 0 and state["errors"] == 0,
                     f"{label}: {name} loaded {state['loaded']} of {state['requested']} tiles, {state['errors']} failed",
                     state.get("url", ""))
    tiles = [u for u in tools.urls[first:] if TILE_PATH.search(u)]
    if status:
        wrong = [u for u in tiles if ("@2x.png" in u) != (scale > 1)]
        report.check(tiles and not wrong, f"{label}: all {len(tiles)} tile requests ask for {'@2x' if scale > 1 else '256 px'} tiles",
                     ", ".join(wrong[:5]))
    new = tools.problems[problems:] + (status or {}).get("errors", [])
    report.check(not new, f"{label}: no network or console errors", "; ".join(new[:10]))
    return status


def switch_variables(tools, report, seconds):
    """Sets every variable selector to each of its other values and waits for the new tiles."""
    selectors = tools.evaluate("""Array.from(document.querySelectorAll('.card select[data-variable]')).map(s => ({
        layer: s.closest('.card').dataset.layer, name: s.dataset.variable, value: s.value,
        values: Array.from(s.options).map(o => o.value)}))""")
    for selector in selectors:
        others = [value for value in selector["values"] if value != selector["value"]]
        seen = {selector["value"]}
        for value in others + [selector["value"]]:  # every other value, then back to the default
            first = len(tools.urls)
            problems = len(tools.problems)
            before = tools.status()["layers"][selector["layer"]]
            tools.evaluate(f"""(() => {{ const s = document.querySelector(
                '.card[data-layer="{selector['layer']}"] select[data-variable="{selector['name']}"]');
                s.value = {json.dumps(value)}; s.dispatchEvent(new Event('change')); }})()""")
            status, settled = tools.wait_ready(seconds)
            state = (status or {}).get("layers", {}).get(selector["layer"], {})
            asked = [u for u in tools.urls[first:] if TILE_PATH.search(u)]
            label = f"{selector['layer']} ?{selector['name']}={value}"
            if state.get("url") == before.get("url"):
                continue  # the value the map already showed: nothing to load
            wanted = f"{selector['name']}={value}"
            # Tiles of a value shown before may come from the page's memory cache, without a request.
            fetched = bool(asked) or value in seen
            seen.add(value)
            report.check(settled and state.get("loaded", 0) > before["loaded"] and state.get("errors") == before["errors"]
                         and fetched and all(wanted in u for u in asked) and len(tools.problems) == problems,
                         f"{label}: {state.get('loaded', 0) - before['loaded']} tiles loaded ({len(asked)} requested)", json.dumps(state) + "; " + "; ".join(tools.problems[problems:]))
    return bool(selectors)


def check_access_log(path, report):
    statuses = []
    with open(path, errors="replace") as log:
        for line in log:
            match = re.search(r"\bstatus=(\d{3})\b", line)
            if match and "path=" in line:
                statuses.append((int(match.group(1)), re.search(r"path=(\S+)", line).group(1)))
    bad = [f"{code} {path}" for code, path in statuses if not (200 <= code < 300 or code == 304)]
    report.check(statuses and not bad, f"access log: {len(statuses)} requests, every one 2xx or 304", ", ".join(bad[:10]))


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--url", required=True, help="the server's base URL, e.g. http://127.0.0.1:8080")
    parser.add_argument("--out", required=True, help="folder for the screenshots")
    parser.add_argument("--access-log", help="the server's log file, to check every answer")
    parser.add_argument("--chromium", default=shutil.which("chromium") or "chromium")
    parser.add_argument("--name", default="browser", help="screenshots are NAME.png and NAME@2x.png")
    parser.add_argument("--expect-mode", choices=["leaflet", "image"], help="fail unless the page is in this mode")
    parser.add_argument("--timeout", type=float, default=45, help="seconds each page state may take")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    origin = args.url.rstrip("/")
    report = Report()
    profile = tempfile.mkdtemp(prefix="tilelayer-chromium-")
    process = None
    try:
        process, port = start_chromium(args.chromium, profile)
        tools = DevTools(page_socket(port), origin)
        for domain in ("Page", "Network", "Runtime", "Log"):
            tools.call(f"{domain}.enable")
        tools.call("Network.setCacheDisabled", cacheDisabled=True)
        print(f"browser test of {origin}/ in {args.chromium}")

        status = load(tools, origin + "/?selftest", 1, report, "1x", args.timeout)
        mode = (status or {}).get("mode")
        print(f"  (page mode: {mode})")
        if args.expect_mode:
            report.check(mode == args.expect_mode, f"the page is in {args.expect_mode} mode", f"mode {mode}")
        switch_variables(tools, report, args.timeout)
        tools.evaluate("window.scrollTo(0, 0)")
        tools.screenshot(os.path.join(args.out, f"{args.name}.png"))
        load(tools, origin + "/?selftest", 2, report, "2x", args.timeout)
        tools.screenshot(os.path.join(args.out, f"{args.name}@2x.png"))
        if tools.canceled:
            print(f"  (note: {len(tools.canceled)} requests canceled by the page, not counted as errors)")
    except Exception as error:  # any failure of the harness itself is a failed check
        report.check(False, "browser session", f"{type(error).__name__}: {error}")
    finally:
        if process:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
        shutil.rmtree(profile, ignore_errors=True)
    if args.access_log:
        time.sleep(0.5)
        check_access_log(args.access_log, report)
    print(f"screenshots: {args.out}/{args.name}.png, {args.out}/{args.name}@2x.png")
    print(f"{report.passed} passed, {report.failed} failed")
    return 0 if report.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
