"""Headless Chromium driven over its DevTools protocol on a pipe (``--remote-debugging-pipe``:
JSON messages ended by NUL, commands on fd 3, answers and events on fd 4), with nothing but the
standard library: real key presses, a page's state read by script, and screenshots."""

from __future__ import annotations

import base64
import json
import os
import subprocess
import time
from pathlib import Path
from typing import Any


def chromium_env(profile: Path, **extra: str) -> dict[str, str]:
    """The environment to start Chromium in: this one with its home, configuration and cache
    folders inside ``profile`` (even with --user-data-dir Chromium writes ~/.config/chromium's
    crash reports, and dconf ~/.cache/dconf), and ``extra`` (FONTCONFIG_FILE, say)."""
    folders = {"HOME": "home", "XDG_CONFIG_HOME": "config", "XDG_CACHE_HOME": "cache"}
    for folder in folders.values():
        (profile / folder).mkdir(parents=True, exist_ok=True)
    return {**os.environ, **{key: str(profile / folder) for key, folder in folders.items()}, **extra}


class Browser:
    def __init__(
        self, chromium: str, profile: Path, width: int, height: int, mobile: bool = False, fonts: str | None = None
    ):
        """Chromium with its profile in ``profile`` (and nothing written outside it), a page of
        ``width`` × ``height`` (``mobile``: as a phone); ``fonts``: a fontconfig file, for the
        fonts it may use."""
        to_chrome, self._in = os.pipe()
        self._out, from_chrome = os.pipe()
        args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-extensions",
            f"--user-data-dir={profile / 'data'}",
            "--remote-debugging-pipe",
            "--hide-scrollbars",
            "--host-resolver-rules=MAP * ~NOTFOUND",
            "about:blank",
        ]
        # bash, not sh: dash takes only one-digit file descriptors in a redirection
        self.proc = subprocess.Popen(
            ["bash", "-c", f'exec "$0" "$@" 3<&{to_chrome} 4>&{from_chrome}', chromium, *args],
            pass_fds=(to_chrome, from_chrome),
            env=chromium_env(profile, **({"FONTCONFIG_FILE": fonts} if fonts else {})),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(to_chrome)
        os.close(from_chrome)
        self._buffer, self._id, self.session = b"", 0, None
        target = self.send("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.send("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        self.send("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=mobile)
        self.send("Runtime.enable")
        self.console: list[str] = []

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: object) -> None:
        self.proc.kill()
        self.proc.wait()
        os.close(self._in)
        os.close(self._out)

    def _read(self) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            chunk = os.read(self._out, 1 << 16)
            if not chunk:
                raise RuntimeError("Chromium closed its DevTools pipe")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def send(self, method: str, **params: Any) -> dict[str, Any]:
        self._id += 1
        message: dict[str, Any] = {"id": self._id, "method": method, "params": params}
        if self.session and not method.startswith("Target."):
            message["sessionId"] = self.session
        os.write(self._in, json.dumps(message).encode() + b"\0")
        while True:
            answer = self._read()
            if answer.get("method") == "Runtime.consoleAPICalled" or answer.get("method") == "Runtime.exceptionThrown":
                self.console.append(json.dumps(answer["params"])[:500])
            if answer.get("id") == self._id:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer.get("result", {})

    def evaluate(self, expression: str) -> Any:
        found = self.send("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in found:
            raise RuntimeError(f"{expression}: {found['exceptionDetails']}")
        return found["result"].get("value")

    def open(self, url: str, ready: str = "document.documentElement.dataset.ready === 'true'") -> None:
        self.send("Page.navigate", url=url)
        deadline = time.monotonic() + 60
        while not self.evaluate(f"document.readyState === 'complete' && {ready}"):
            if time.monotonic() > deadline:
                raise TimeoutError(f"{url} was not ready in 60 s")
            time.sleep(0.1)

    def press(self, key: str, code: int, shift: bool = False) -> None:
        """One key press, as the keyboard sends it (down, then up), to whatever has the focus."""
        common = {"key": key, "code": key, "windowsVirtualKeyCode": code, "modifiers": 8 if shift else 0}
        self.send("Input.dispatchKeyEvent", type="rawKeyDown", **common)
        if key in (" ", "Enter"):
            self.send("Input.dispatchKeyEvent", type="char", text=" " if key == " " else "\r", **common)
        self.send("Input.dispatchKeyEvent", type="keyUp", **common)

    def type(self, text: str) -> None:
        self.send("Input.insertText", text=text)

    def screenshot(self, path: Path) -> Path:
        data = self.send("Page.captureScreenshot", format="png", captureBeyondViewport=False)["data"]
        path.write_bytes(base64.b64decode(data))
        return path


KEYS = {"Tab": 9, "Enter": 13, " ": 32, "ArrowDown": 40, "ArrowUp": 38, "Home": 36, "End": 35}
