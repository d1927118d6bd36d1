#!/usr/bin/env python3
"""The support console in a real browser: headless Chromium driven by Selenium through Debian's
chromedriver (no driver download). run.sh starts the server and the fake App Store first.

    CONSOLE_TEST_TOKEN=... console_test.py --url http://127.0.0.1:PORT --ids ids.json [--screenshot FILE]

Signs in (a wrong token first), searches by each kind of ID with the keyboard, reads the granted
products and the timeline, checks that stored markup shows as text, that dates show in the
browser's time zone (Europe/Paris here) with UTC in the title, opens a payload, reconciles with
the fake App Store, takes a screenshot of the customer page, signs out; and fails if the browser
logged any script error or Content-Security-Policy violation on any page.
"""
import argparse
import datetime
import json
import os
import sys
import urllib.parse
import zoneinfo

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

TIME_ZONE = "Europe/Paris"


class ConsoleTest:
    def __init__(self, driver, url, ids, token):
        self.driver = driver
        self.url = url.rstrip("/")
        self.ids = ids
        self.token = token
        self.customer_path = f"/console/customers/{ids['customer']}"
        self.problems = []
        self.checks = 0

    # Helpers

    def check(self, condition, message):
        self.checks += 1
        if not condition:
            self.problems.append(message)
            print(f"FAIL: {message}", file=sys.stderr)

    def wait(self, condition, what, seconds=30):
        """Waits for a page event (a condition of the DOM or URL); a bound, not a timing assertion."""
        try:
            return WebDriverWait(self.driver, seconds).until(condition)
        except TimeoutException:
            raise AssertionError(f"timed out waiting for {what} (at {self.driver.current_url})")

    def path(self):
        return urllib.parse.urlsplit(self.driver.current_url).path

    def wait_for_path(self, path):
        self.wait(lambda driver: self.path() == path, f"the page {path}")
        self.wait(lambda driver: driver.execute_script("return document.readyState") == "complete", f"{path} to load")

    def browser_log(self, step, allowed=()):
        """Fails on what the browser logged since the last call: any warning or error (script errors,
        Content-Security-Policy violations, failed loads), except the failed loads `allowed` names
        (a page answered 403 or 404 on purpose); its advice at debug and info level is not a failure."""
        for entry in self.driver.get_log("browser"):
            message = entry.get("message", "")
            source = entry.get("source", "")
            level = entry.get("level", "")
            if source == "network" and any(fragment in message for fragment in allowed):
                continue
            serious = level in ("WARNING", "SEVERE") or source in ("javascript", "security") or "Content Security Policy" in message
            self.check(not serious, f"{step}: the browser logged {level} ({source}): {message}")

    def text(self, selector):
        return self.driver.find_element(By.CSS_SELECTOR, selector).text

    def rows(self, table_id):
        return self.driver.find_elements(By.CSS_SELECTOR, f"#{table_id} tbody tr")

    def row(self, table_id, containing):
        matches = [row for row in self.rows(table_id) if containing in row.text]
        self.check(len(matches) >= 1, f"no row of #{table_id} contains {containing!r}")
        return matches[0] if matches else None

    def search(self, query):
        """Types the query in the header's search box and presses Enter (keyboard only)."""
        box = self.driver.find_element(By.ID, "q")
        box.clear()
        box.send_keys(query + Keys.ENTER)

    # Steps

    def sign_in(self):
        self.driver.get(self.url + "/console")
        self.wait_for_path("/console/sign-in")
        self.check(self.text("h1") == "Sign in", "the sign-in page's heading")
        label = self.driver.find_element(By.CSS_SELECTOR, "label[for=token]")
        self.check(label.text == "Access token", "the token field has a label")
        self.driver.find_element(By.ID, "token").send_keys("not-the-token-0123456789abcdef" + Keys.ENTER)
        self.wait(expected_conditions.presence_of_element_located((By.ID, "sign-in-error")), "the refusal")
        self.check("not the server's access token" in self.text("#sign-in-error"), "a wrong token is refused")
        self.check(self.driver.get_cookies() == [] or all(c["name"] != "receipt_console_session" for c in self.driver.get_cookies()),
                   "no session cookie after a wrong token")
        self.browser_log("wrong token", allowed=("403",))
        self.driver.find_element(By.ID, "token").send_keys(self.token + Keys.ENTER)
        self.wait_for_path("/console")
        self.check(self.text("h1") == "Find a customer", "signed in: the search page")
        cookie = next((c for c in self.driver.get_cookies() if c["name"] == "receipt_console_session"), None)
        self.check(cookie is not None, "a session cookie")
        if cookie:
            self.check(cookie.get("httpOnly") is True, "the session cookie is HttpOnly")
            self.check(cookie.get("sameSite") == "Strict", "the session cookie is SameSite=Strict")
            self.check("expiry" in cookie, "the session cookie has an expiry")
        self.check(self.driver.execute_script("return document.cookie") == "", "scripts see no cookie")
        self.browser_log("sign-in")

    def keyboard(self):
        """The first Tab reaches the skip link; it moves focus to the main content."""
        body = self.driver.find_element(By.TAG_NAME, "body")
        body.send_keys(Keys.TAB)
        active = self.driver.switch_to.active_element
        self.check("skip-link" in (active.get_attribute("class") or ""), "the first Tab reaches the skip link")
        active.send_keys(Keys.ENTER)
        self.wait(lambda driver: driver.switch_to.active_element.get_attribute("id") == "main", "focus on main")

    def search_each_kind(self):
        for kind in ("customer", "originalTransactionId", "renewalTransactionId", "refundNotificationUUID"):
            self.search(self.ids[kind])
            self.wait_for_path(self.customer_path)
            self.check(self.ids["customer"] in self.text("h1"), f"search by {kind} finds the customer")
            self.browser_log(f"search by {kind}")
        self.search("9999999999999999")
        self.wait(lambda driver: "Nothing stored matches" in driver.page_source, "the not-found message")
        self.browser_log("search for nothing", allowed=("404",))
        self.search(self.ids["customer"])
        self.wait_for_path(self.customer_path)

    def customer_page(self):
        monthly = self.row("products", self.ids["monthly"])
        if monthly:
            self.check("Granted" in monthly.text and "Subscribed" in monthly.text and "Auto-renew on" in monthly.text,
                       f"the renewed subscription is granted: {monthly.text!r}")
            self.check(f"transaction {self.ids['renewalTransactionId']}" in monthly.text, "the reason names the renewal")
        refunded = self.row("products", self.ids["refunded"])
        if refunded:
            self.check("Not granted" in refunded.text and "Revoked" in refunded.text and "Refunded" in refunded.text,
                       f"the refunded unlock: {refunded.text!r}")
        shared = self.row("products", self.ids["familyShared"])
        if shared:
            self.check("Family shared" in shared.text, "the family-shared product says so")
        self.check(not any(self.ids["retired"] in row.text for row in self.rows("products")),
                   "data signed under the retired root counts for nothing")
        # Markup stored in signed strings is text, never elements.
        names = [element.text for element in self.driver.find_elements(By.CSS_SELECTOR, "#products .product")]
        for markup in self.ids["markup"]:
            self.check(markup in names, f"the product {markup!r} shows as text")
        self.check(self.driver.find_elements(By.TAG_NAME, "img") == [], "no <img> element on the page")
        scripts = [element.get_attribute("src") for element in self.driver.find_elements(By.TAG_NAME, "script")]
        self.check(scripts == [self.url + "/console/static/console.js"], f"one script, the console's own: {scripts}")
        self.check(self.driver.execute_script("return window.__xss === undefined"), "no stored markup ran")
        # The timeline: purchase, renewal (from the app and Apple), refund; environment and verdicts.
        timeline = [row.text for row in self.rows("timeline")]
        for event in ("Purchase", "Renewal", "Notification: DID_RENEW", "Notification: REFUND"):
            self.check(any(event in text for text in timeline), f"the timeline shows {event}")
        self.check(all("Sandbox" in text for text in timeline), "every item shows its environment")
        retired = self.row("timeline", self.ids["retired"])
        if retired:
            self.check("Does not verify" in retired.text and "Not counted" in retired.text,
                       f"the item signed under the retired root: {retired.text!r}")
            self.check("unverified" in (retired.get_attribute("class") or ""), "it is marked")
        verified = [text for text in timeline if self.ids["retired"] not in text]
        self.check(all("Verifies" in text for text in verified), "every other item verifies")
        # Dates: in the viewer's time zone, UTC in the title.
        times = self.driver.find_elements(By.CSS_SELECTOR, "#timeline time")
        self.check(len(times) > 0, "the timeline has dates")
        zone = zoneinfo.ZoneInfo(TIME_ZONE)
        for element in times[:5]:
            utc = datetime.datetime.fromisoformat(element.get_attribute("datetime").replace("Z", "+00:00"))
            local = utc.astimezone(zone)
            self.check(element.get_attribute("data-local") == "true", "the script rewrote the date")
            self.check(local.strftime("%H:%M:%S") in element.text, f"{element.text!r} is {local:%H:%M:%S} in {TIME_ZONE}")
            millis = f".{utc.microsecond // 1000:03d}" if utc.microsecond else ""
            self.check(element.get_attribute("title") == utc.strftime("%Y-%m-%d %H:%M:%S") + millis + " UTC",
                       f"the title keeps UTC: {element.get_attribute('title')!r}")
        self.check(TIME_ZONE in self.text("#time-note"), "the footer names the time zone")
        self.browser_log("customer page")

    def payload(self):
        refund = self.row("timeline", "Notification: REFUND")
        if not refund:
            return
        refund.find_element(By.PARTIAL_LINK_TEXT, "Payload").click()
        self.wait(lambda driver: "/items/" in driver.current_url, "the payload page")
        self.check(self.text("h1") == "Notification: REFUND", "the payload page's heading")
        payloads = " ".join(element.text for element in self.driver.find_elements(By.CSS_SELECTOR, "pre.payload"))
        self.check('"notificationType" : "REFUND"' in payloads and '"revocationType" : "REFUND_FULL"' in payloads,
                   "the decoded notification and its nested transaction")
        summary = self.driver.find_element(By.TAG_NAME, "summary")
        summary.send_keys(Keys.ENTER)
        self.wait(lambda driver: driver.find_element(By.CSS_SELECTOR, "pre.jws").is_displayed(), "the JWS to open")
        self.browser_log("payload page")
        self.driver.back()
        self.wait_for_path(self.customer_path)

    def reconcile(self, screenshot):
        button = self.driver.find_element(By.ID, "reconcile")
        self.check(button.text == "Reconcile with Apple", "the reconcile button")
        button.click()
        self.wait(expected_conditions.presence_of_element_located((By.ID, "reconciled-heading")), "the reconciliation's result")
        self.wait_for_path(self.customer_path)
        added = self.text("#reconcile-added")
        self.check(self.ids["reconcileAdds"] in added, f"reconciliation added the purchase the app never sent: {added!r}")
        self.check("Refund" in added, "and the refunded version of the unlock")
        self.check(any(self.ids["reconcileAdds"] == row.find_element(By.CSS_SELECTOR, ".product").text and "Granted" in row.text
                       for row in self.rows("products")), "the added purchase is granted")
        self.browser_log("reconcile")
        if screenshot:
            height = self.driver.execute_script("return document.documentElement.scrollHeight")
            self.driver.set_window_size(1280, min(max(height, 900), 4000))
            self.driver.save_screenshot(screenshot)
            print(f"screenshot: {screenshot}")

    def phone(self):
        """On a phone-sized window the page fits its width; wide tables scroll in their own box."""
        self.driver.set_window_size(390, 844)
        self.driver.refresh()
        self.wait_for_path(self.customer_path)
        overflow = self.driver.execute_script("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
        wide = self.driver.execute_script("""
            var width = document.documentElement.clientWidth, found = [];
            document.querySelectorAll("body *").forEach(function (element) {
              var box = element.getBoundingClientRect();
              if (box.right > width + 1) { found.push(element.tagName + "." + element.className + " " + Math.round(box.right)); }
            });
            return found.slice(0, 8);""")
        self.check(overflow <= 1, f"no sideways scrolling of the page on a phone ({overflow}px too wide: {wide})")
        self.driver.set_window_size(1280, 1800)
        self.browser_log("phone")

    def sign_out(self):
        self.driver.find_element(By.CSS_SELECTOR, ".sign-out button").click()
        self.wait_for_path("/console/sign-in")
        self.driver.get(self.url + self.customer_path)
        self.wait_for_path("/console/sign-in")
        self.check(all(c["name"] != "receipt_console_session" for c in self.driver.get_cookies()), "the session cookie is gone")
        self.browser_log("sign-out")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", required=True)
    parser.add_argument("--ids", required=True)
    parser.add_argument("--screenshot")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--chromedriver", default="/usr/bin/chromedriver")
    args = parser.parse_args()
    token = os.environ.get("CONSOLE_TEST_TOKEN", "")
    if not token:
        sys.exit("console_test.py: set CONSOLE_TEST_TOKEN to the server's access token")
    with open(args.ids) as handle:
        ids = json.load(handle)

    options = Options()
    options.binary_location = args.chromium
    for argument in ("--headless=new", "--disable-dev-shm-usage", "--window-size=1280,1800", "--lang=en-US",
                     "--disable-extensions", "--no-first-run", "--disable-background-networking"):
        options.add_argument(argument)
    if os.geteuid() == 0:
        options.add_argument("--no-sandbox")  # Chromium refuses to run as root with its sandbox
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=args.chromedriver), options=options)
    test = ConsoleTest(driver, args.url, ids, token)
    try:
        driver.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": TIME_ZONE})
        test.sign_in()
        test.keyboard()
        test.search_each_kind()
        test.customer_page()
        test.payload()
        test.reconcile(args.screenshot)
        test.phone()
        test.sign_out()
    finally:
        driver.quit()
    if test.problems:
        print(f"console browser test: {len(test.problems)} of {test.checks} checks failed", file=sys.stderr)
        sys.exit(1)
    print(f"console browser test: {test.checks} checks passed")


if __name__ == "__main__":
    main()
