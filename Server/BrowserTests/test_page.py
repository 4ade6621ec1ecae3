#!/usr/bin/env python3
"""The page of inkrec-serve in a real browser: headless Chromium (Debian's `chromium` and
`chromium-driver`, driven by Selenium) loads the page, writes Samples/hello.json on the canvas as
pointer events (scaled into the canvas, in the recorded order), and the candidate shown must be
"hello". Each candidate's text is an element with dir="auto" (so that Hebrew or Arabic reads right
to left): the test checks the attribute on the candidates shown, and, with no right-to-left model on
the server, puts a Hebrew and an Arabic text in the list through the page's own `showCandidates` and
checks that the browser lays them out right to left (and "hello" left to right). The server is the
built `inkrec-serve` (make test-server builds it first).

    python3 Server/BrowserTests/test_page.py [--screenshot Docs/server-page.png]
"""
import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.by import By
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.support.ui import WebDriverWait

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(storage):
    binary = os.path.join(ROOT, "Server", ".build", "debug", "inkrec-serve")
    if not os.path.exists(binary):
        subprocess.run(["swift", "build", "--package-path", os.path.join(ROOT, "Server"), "--product", "inkrec-serve"], check=True)
    port = free_port()
    proc = subprocess.Popen([binary, "--port", str(port), "--storage", storage], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=1) as r:
                if r.status == 200:
                    return proc, base
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("inkrec-serve did not start: " + proc.stderr.read().decode(errors="replace"))


def browser():
    options = webdriver.ChromeOptions()
    for a in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1000,900"):
        options.add_argument(a)
    chromium = shutil.which("chromium")
    if chromium:
        options.binary_location = chromium
    driver_path = shutil.which("chromedriver")
    return webdriver.Chrome(options=options, service=Service(driver_path) if driver_path else None)


def write(driver, pad, strokes):
    """Replays `strokes` ([[(x, y)]]) on the canvas as pen pointer events, scaled to fit with a margin."""
    rect = driver.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.left, r.top, r.width, r.height];", pad)
    left, top, width, height = rect
    xs = [p[0] for s in strokes for p in s]
    ys = [p[1] for s in strokes for p in s]
    scale = min((width - 40) / max(max(xs) - min(xs), 1), (height - 40) / max(max(ys) - min(ys), 1))
    def at(p):
        return int(left + 20 + (p[0] - min(xs)) * scale), int(top + 20 + (p[1] - min(ys)) * scale)
    builder = ActionBuilder(driver, mouse=PointerInput(interaction.POINTER_PEN, "pen"), duration=0)
    for s in strokes:
        x, y = at(s[0])
        builder.pointer_action.move_to_location(x, y)
        builder.pointer_action.pointer_down()
        for p in s[1:]:
            x, y = at(p)
            builder.pointer_action.move_to_location(x, y)
        builder.pointer_action.pointer_up()
    builder.perform()


def check_directions(driver):
    """Every candidate's text is an element with dir="auto"; a Hebrew or Arabic text put in the list
    is laid out right to left, a Latin one left to right."""
    shown, dirs = driver.execute_script("""
        return [document.querySelectorAll("#candidates li").length,
                Array.from(document.querySelectorAll("#candidates li > .text")).map(e => e.getAttribute("dir"))];""")
    if not dirs or len(dirs) != shown or any(d != "auto" for d in dirs):
        raise SystemExit(f"FAILED: {shown} candidates, {len(dirs)} texts, dir {dirs}; "
                         "expected each candidate's text in an element with dir=\"auto\"")
    samples = ["\u05e9\u05dc\u05d5\u05dd \u05e2\u05d5\u05dc\u05dd", "\u0645\u0631\u062d\u0628\u0627", "hello"]
    directions = driver.execute_script("""
        showCandidates(arguments[0].map((text, i) => ({ text: text, score: -1 - i, confidence: 0.5 })));
        return Array.from(document.querySelectorAll("#candidates li > .text"))
            .map(e => [e.textContent, getComputedStyle(e).direction]);""", samples)
    expected = [[samples[0], "rtl"], [samples[1], "rtl"], ["hello", "ltr"]]
    if directions != expected:
        raise SystemExit(f"FAILED: the candidates' computed directions are {directions}, expected {expected}")
    print("candidates: dir=auto; Hebrew and Arabic texts shown right to left, Latin left to right")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--screenshot", help="save a screenshot of the page after recognition here")
    args = ap.parse_args()
    with open(os.path.join(ROOT, "Samples", "hello.json")) as f:
        sample = json.load(f)
    strokes = [[(p["x"], p["y"]) for p in s["points"]] for s in sample["strokes"]]
    storage = tempfile.mkdtemp(prefix="inkrec-serve-")
    server, base = start_server(storage)
    driver = None
    try:
        driver = browser()
        driver.get(base + "/")
        # The page replaces the language list's options when /v1/models answers: asked element by
        # element, an option found before that could be gone when read (a stale element). One script
        # reads the list at one moment instead.
        WebDriverWait(driver, 20).until(lambda d: d.execute_script(
            "return Array.from(document.querySelectorAll('#language option'))"
            ".some(o => o.value === 'en-US' && !o.disabled);"))
        pad = driver.find_element(By.ID, "pad")
        write(driver, pad, strokes)
        # The list is rebuilt on each answer (an answer to the ink so far may come before the last
        # stroke's), so its first text is read in the page in one step, until it is "hello" or 20 s pass.
        def first_text(d):
            return (d.execute_script("const t = document.querySelector('#candidates li > .text');"
                                     "return t ? t.textContent : '';") or "").strip()
        try:
            WebDriverWait(driver, 20).until(lambda d: first_text(d) == "hello")
        except TimeoutException:
            pass
        text = first_text(driver)
        points = driver.execute_script("return JSON.parse(document.getElementById('json').value).strokes.map(s => s.points.length)")
        print(f"page: {len(points)} strokes, {sum(points)} points written; first candidate {text!r}")
        if args.screenshot:
            driver.save_screenshot(args.screenshot)
        if text != "hello":
            raise SystemExit(f"FAILED: the page showed {text!r}, expected 'hello'")
        check_directions(driver)
        # Clear empties the pad and the candidates.
        driver.find_element(By.ID, "clear").click()
        WebDriverWait(driver, 10).until(lambda d: not d.find_elements(By.CSS_SELECTOR, "#candidates li"))
        print("browser test passed")
    finally:
        if driver:
            driver.quit()
        server.terminate()
        server.wait(timeout=10)
        shutil.rmtree(storage, ignore_errors=True)


if __name__ == "__main__":
    main()
