#!/usr/bin/env python3
"""Tests of tools/hub/hub_server.py (standard library only).

Run: python3 tools/hub/test_hub_server.py   (exits non-zero on failure)

Builds a small tree of repositories in a temporary directory, starts the server on it as a
subprocess (waiting for its "listening on" line, never sleeping) and checks every behaviour against
hashes computed here independently.
"""

import hashlib
import http.client
import json
import os
import random
import select
import shutil
import subprocess
import sys
import tempfile
import unittest
from urllib.parse import urlsplit

HERE = os.path.dirname(os.path.abspath(__file__))
SERVER = os.path.join(HERE, "hub_server.py")
TIMEOUT = 10  # seconds, for every socket operation and for the server's start

PIPER = "rhasspy/piper-voices"
GATED = "neuphonic/neutts-air"
VOICE = "en/en_US/joe/medium/en_US-joe-medium.onnx"
TOKEN = "hf_test_good_token"


def build_tree(root):
    rng = random.Random(18)
    files = {
        PIPER: {
            "voices.json": json.dumps({"en_US-joe-medium": {
                "key": "en_US-joe-medium", "name": "joe", "quality": "medium", "num_speakers": 1,
                "language": {"code": "en_US", "family": "en", "region": "US"},
                "files": {VOICE: {"size_bytes": 50_000}}, "aliases": []}}, indent=1).encode(),
            VOICE: bytes(rng.getrandbits(8) for _ in range(50_000)),
            VOICE + ".json": b'{"audio": {"sample_rate": 22050}}\n',
            "en/en_US/joe/medium/MODEL_CARD": b"# Model card for joe\n",
            "corrupt.bin": bytes(rng.getrandbits(8) for _ in range(30_000)),
        },
        GATED: {
            "config.json": b'{"model_type": "neutts"}\n',
            "model.safetensors": bytes(rng.getrandbits(8) for _ in range(20_000)),
        },
    }
    for repo, fs in files.items():
        for path, data in fs.items():
            full = os.path.join(root, repo, *path.split("/"))
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "wb") as f:
                f.write(data)
    return files


def git_blob_sha1(data):
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def sha256(data):
    return hashlib.sha256(data).hexdigest()


class Server:
    def __init__(self, root, *args):
        self.proc = subprocess.Popen([sys.executable, SERVER, "--root", root, *args],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        ready, _, _ = select.select([self.proc.stdout], [], [], TIMEOUT)
        if not ready:
            self.stop()
            raise RuntimeError("server did not start within %d s" % TIMEOUT)
        line = self.proc.stdout.readline().decode().strip()
        if not line.startswith("listening on http://127.0.0.1:"):
            err = self.proc.stderr.read().decode() if self.proc.poll() is not None else ""
            self.stop()
            raise RuntimeError("unexpected first line %r %s" % (line, err))
        self.port = int(line.rsplit(":", 1)[1])

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(TIMEOUT)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(TIMEOUT)
        self.proc.stdout.close()
        self.proc.stderr.close()


class Response:
    def __init__(self, r, body):
        self.status, self.headers, self.body = r.status, r.headers, body


def request(host, port, method, path, headers=None):
    c = http.client.HTTPConnection(host, port, timeout=TIMEOUT)
    try:
        c.request(method, path, headers=headers or {})
        r = c.getresponse()
        return Response(r, r.read())
    finally:
        c.close()


def follow(url_or_loc, headers=None, method="GET"):
    u = urlsplit(url_or_loc)
    return request(u.hostname, u.port, method, u.path + ("?" + u.query if u.query else ""), headers)


class HubServerTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="hubtest-")
        cls.files = build_tree(cls.tmp)
        cls.srv = Server(cls.tmp, "--token", TOKEN, "--gated", GATED, "--page-size", "3",
                         "--corrupt", PIPER + "/corrupt.bin",
                         "--moved", "rhasspy/old-voices=" + PIPER)
        cls.port = cls.srv.port
        # The expected commit sha, computed here the way the README documents it.
        cls.sha = {}
        for repo, fs in cls.files.items():
            lines = ""
            for p in sorted(fs):
                d = fs[p]
                oid = git_blob_sha1(d) if len(d) <= 10_000 else git_blob_sha1(
                    b"version https://git-lfs.github.com/spec/v1\noid sha256:%s\nsize %d\n"
                    % (sha256(d).encode(), len(d)))
                lines += "%s\0%s\n" % (p, oid)
            cls.sha[repo] = hashlib.sha1(lines.encode()).hexdigest()

    @classmethod
    def tearDownClass(cls):
        cls.srv.stop()
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def get(self, path, headers=None, method="GET"):
        return request("127.0.0.1", self.port, method, path, headers)

    def clear_log(self):
        self.assertEqual(self.get("/_test/log", method="DELETE").status, 204)

    def log(self):
        return json.loads(self.get("/_test/log").body)

    def assertError(self, r, status, code):
        self.assertEqual(r.status, status, r.body)
        self.assertEqual(r.headers["X-Error-Code"], code)
        self.assertTrue(r.headers["X-Error-Message"])

    # -- resolve ------------------------------------------------------------------------------------

    def test_small_file_direct(self):
        data = self.files[PIPER]["voices.json"]
        for method in ("HEAD", "GET"):
            r = self.get("/%s/resolve/main/voices.json" % PIPER, method=method)
            self.assertEqual(r.status, 200)
            self.assertEqual(r.headers["ETag"], '"%s"' % git_blob_sha1(data))
            self.assertEqual(r.headers["X-Repo-Commit"], self.sha[PIPER])
            self.assertEqual(int(r.headers["Content-Length"]), len(data))
            self.assertIsNone(r.headers["Location"])
            self.assertIsNone(r.headers["X-Linked-Etag"])
            self.assertEqual(r.body, data if method == "GET" else b"")

    def test_small_file_in_subdirectory_and_full_sha(self):
        data = self.files[PIPER]["en/en_US/joe/medium/MODEL_CARD"]
        r = self.get("/%s/resolve/%s/en/en_US/joe/medium/MODEL_CARD" % (PIPER, self.sha[PIPER]))
        self.assertEqual(r.status, 200)
        self.assertEqual(r.body, data)

    def test_lfs_redirects_to_other_host(self):
        data = self.files[PIPER][VOICE]
        for method in ("HEAD", "GET"):
            r = self.get("/%s/resolve/main/%s" % (PIPER, VOICE), {"Authorization": "Bearer " + TOKEN}, method)
            self.assertEqual(r.status, 302)
            self.assertEqual(r.headers["X-Repo-Commit"], self.sha[PIPER])
            self.assertEqual(r.headers["X-Linked-Etag"], '"%s"' % sha256(data))
            self.assertEqual(int(r.headers["X-Linked-Size"]), len(data))
            self.assertTrue(r.headers["ETag"])
            loc = urlsplit(r.headers["Location"])
            self.assertEqual(loc.scheme, "http")
            self.assertEqual(loc.hostname, "localhost")  # another host than 127.0.0.1
            self.assertEqual(loc.port, self.port)
            self.assertIn("Signature=", loc.query)
        self.clear_log()
        # Follow it as a client does: without the Authorization header.
        c = follow(r.headers["Location"])
        self.assertEqual(c.status, 200)
        self.assertEqual(c.body, data)
        self.assertEqual(sha256(c.body), sha256(data))
        cdn = [e for e in self.log() if e["path"].startswith("/cdn/")]
        self.assertEqual(len(cdn), 1)
        self.assertFalse(cdn[0]["authorization"])
        self.assertEqual(cdn[0]["host"], "localhost:%d" % self.port)
        # The log does see an Authorization header when one is sent.
        self.clear_log()
        follow(r.headers["Location"], {"Authorization": "Bearer x"}, "HEAD")
        self.assertTrue(self.log()[0]["authorization"])

    def test_cdn_refuses_bad_signature_and_wrong_host(self):
        r = self.get("/%s/resolve/main/%s" % (PIPER, VOICE))
        loc = r.headers["Location"]
        bad = loc.replace("Signature=", "Signature=0")
        self.assertEqual(follow(bad).status, 403)
        u = urlsplit(loc)
        self.assertEqual(self.get(u.path + "?" + u.query).status, 404)  # the CDN is not on 127.0.0.1

    def test_cdn_range(self):
        data = self.files[PIPER][VOICE]
        loc = self.get("/%s/resolve/main/%s" % (PIPER, VOICE)).headers["Location"]
        r = follow(loc, {"Range": "bytes=1000-"})
        self.assertEqual(r.status, 206)
        self.assertEqual(r.headers["Content-Range"], "bytes 1000-%d/%d" % (len(data) - 1, len(data)))
        self.assertEqual(r.body, data[1000:])
        r = follow(loc, {"Range": "bytes=10-19"})
        self.assertEqual((r.status, r.body), (206, data[10:20]))
        r = follow(loc, {"Range": "bytes=%d-" % len(data)})
        self.assertEqual(r.status, 416)
        self.assertEqual(r.headers["Content-Range"], "bytes */%d" % len(data))
        r = follow(loc, {"Range": "bytes=%d-" % (len(data) - 1)})
        self.assertEqual((r.status, r.body), (206, data[-1:]))

    def test_range_on_small_file(self):
        data = self.files[PIPER]["voices.json"]
        r = self.get("/%s/resolve/main/voices.json" % PIPER, {"Range": "bytes=5-"})
        self.assertEqual((r.status, r.body), (206, data[5:]))

    def test_errors(self):
        self.assertError(self.get("/nobody/none/resolve/main/x"), 401, "RepoNotFound")
        self.assertError(self.get("/%s/resolve/v9/voices.json" % PIPER), 404, "RevisionNotFound")
        self.assertError(self.get("/%s/resolve/%s/voices.json" % (PIPER, "0" * 40)), 404, "RevisionNotFound")
        self.assertError(self.get("/%s/resolve/main/nope.txt" % PIPER), 404, "EntryNotFound")
        self.assertError(self.get("/%s/resolve/main/nope.txt" % PIPER, method="HEAD"), 404, "EntryNotFound")
        self.assertError(self.get("/api/models/nobody/none/revision/main"), 401, "RepoNotFound")
        self.assertError(self.get("/api/models/%s/revision/v9" % PIPER), 404, "RevisionNotFound")
        self.assertError(self.get("/api/models/%s/tree/v9" % PIPER), 404, "RevisionNotFound")
        self.assertError(self.get("/api/models/%s/tree/main/nodir" % PIPER), 404, "EntryNotFound")

    def test_moved_repository_relative_redirect(self):
        r = self.get("/rhasspy/old-voices/resolve/main/voices.json?download=true", method="HEAD")
        self.assertEqual(r.status, 307)
        self.assertEqual(r.headers["Location"], "/%s/resolve/main/voices.json?download=true" % PIPER)
        r = self.get(r.headers["Location"])
        self.assertEqual((r.status, r.body), (200, self.files[PIPER]["voices.json"]))

    def test_percent_encoded_revision(self):
        # refs/pr/1 is not a revision here: it must be parsed as one segment and refused as such.
        self.assertError(self.get("/%s/resolve/refs%%2Fpr%%2F1/voices.json" % PIPER), 404, "RevisionNotFound")

    # -- gated ----------------------------------------------------------------------------------------

    def test_gated(self):
        data = self.files[GATED]["model.safetensors"]
        path = "/%s/resolve/main/model.safetensors" % GATED
        self.assertError(self.get(path, method="HEAD"), 401, "GatedRepo")
        self.assertError(self.get(path), 401, "GatedRepo")
        self.assertError(self.get(path, {"Authorization": "Bearer hf_other"}), 403, "GatedRepo")
        r = self.get(path, {"Authorization": "Bearer " + TOKEN}, "HEAD")
        self.assertEqual(r.status, 302)
        self.assertEqual(r.headers["X-Linked-Etag"], '"%s"' % sha256(data))
        self.assertEqual(follow(r.headers["Location"]).body, data)
        r = self.get("/%s/resolve/main/config.json" % GATED, {"Authorization": "Bearer " + TOKEN})
        self.assertEqual((r.status, r.body), (200, self.files[GATED]["config.json"]))
        info = json.loads(self.get("/api/models/%s/revision/main" % GATED).body)
        self.assertEqual(info["gated"], "manual")
        self.assertIs(json.loads(self.get("/api/models/%s/revision/main" % PIPER).body)["gated"], False)

    # -- corruption and dropped connections ---------------------------------------------------------------

    def test_corrupt(self):
        data = self.files[PIPER]["corrupt.bin"]
        r = self.get("/%s/resolve/main/corrupt.bin" % PIPER)
        self.assertEqual(r.headers["X-Linked-Etag"], '"%s"' % sha256(data))  # announces the true hash
        c = follow(r.headers["Location"])
        self.assertEqual(c.status, 200)
        self.assertEqual(len(c.body), len(data))
        self.assertNotEqual(sha256(c.body), sha256(data))
        self.assertEqual(sum(a != b for a, b in zip(c.body, data)), 1)

    # -- listings -------------------------------------------------------------------------------------------

    def tree_pages(self, path):
        entries, pages = [], 0
        while path:
            r = self.get(path)
            self.assertEqual(r.status, 200, r.body)
            page = json.loads(r.body)
            self.assertLessEqual(len(page), 3)
            entries += page
            pages += 1
            link = r.headers["Link"]
            if link:
                self.assertTrue(link.endswith('>; rel="next"'), link)
                u = urlsplit(link[1:link.index(">")])
                self.assertEqual((u.hostname, u.port), ("127.0.0.1", self.port))
                path = u.path + "?" + u.query
            else:
                path = None
            self.assertLess(pages, 50)
        return entries, pages

    def test_tree_recursive_paginated(self):
        entries, pages = self.tree_pages("/api/models/%s/tree/main?recursive=true" % PIPER)
        fs = self.files[PIPER]
        dirs = {"en", "en/en_US", "en/en_US/joe", "en/en_US/joe/medium"}
        self.assertEqual(len(entries), len(fs) + len(dirs))
        self.assertEqual(pages, -(-len(entries) // 3))
        self.assertEqual({e["path"] for e in entries if e["type"] == "directory"}, dirs)
        files = {e["path"]: e for e in entries if e["type"] == "file"}
        self.assertEqual(set(files), set(fs))
        for p, d in fs.items():
            e = files[p]
            self.assertEqual(e["size"], len(d))
            if len(d) > 10_000:
                self.assertEqual(e["lfs"]["oid"], sha256(d))
                self.assertEqual(e["lfs"]["size"], len(d))
                pointer = b"version https://git-lfs.github.com/spec/v1\noid sha256:%s\nsize %d\n" % (
                    sha256(d).encode(), len(d))
                self.assertEqual(e["lfs"]["pointerSize"], len(pointer))
                self.assertEqual(e["oid"], git_blob_sha1(pointer))
            else:
                self.assertNotIn("lfs", e)
                self.assertEqual(e["oid"], git_blob_sha1(d))

    def test_tree_not_recursive_and_subdirectory(self):
        entries, _ = self.tree_pages("/api/models/%s/tree/main" % PIPER)
        self.assertEqual({(e["type"], e["path"]) for e in entries},
                         {("directory", "en"), ("file", "voices.json"), ("file", "corrupt.bin")})
        entries, _ = self.tree_pages("/api/models/%s/tree/%s/en/en_US/joe/medium" % (PIPER, self.sha[PIPER]))
        self.assertEqual({e["path"] for e in entries},
                         {VOICE, VOICE + ".json", "en/en_US/joe/medium/MODEL_CARD"})

    def test_model_info(self):
        for path in ("/api/models/%s/revision/main" % PIPER, "/api/models/%s/revision/%s" % (PIPER, self.sha[PIPER]),
                     "/api/models/%s" % PIPER):
            info = json.loads(self.get(path).body)
            self.assertEqual(info["id"], PIPER)
            self.assertEqual(info["sha"], self.sha[PIPER])
            self.assertEqual(sorted(s["rfilename"] for s in info["siblings"]), sorted(self.files[PIPER]))
            self.assertNotIn("size", info["siblings"][0])
        info = json.loads(self.get("/api/models/%s/revision/main?blobs=true" % PIPER).body)
        sib = {s["rfilename"]: s for s in info["siblings"]}
        data = self.files[PIPER][VOICE]
        self.assertEqual(sib[VOICE]["size"], len(data))
        self.assertEqual(sib[VOICE]["lfs"]["sha256"], sha256(data))
        self.assertEqual(sib[VOICE]["lfs"]["size"], len(data))
        self.assertEqual(sib["voices.json"]["size"], len(self.files[PIPER]["voices.json"]))
        self.assertNotIn("lfs", sib["voices.json"])
        self.assertNotEqual(self.sha[PIPER], self.sha[GATED])


class DropAndIgnoreRangeTest(unittest.TestCase):
    """A second server: the CDN drops the first GET of each file, then (with --ignore-range) answers
    a Range request with 200 and the whole body."""

    DROP = 12_345

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="hubtest-")
        cls.files = build_tree(cls.tmp)
        cls.drop = Server(cls.tmp, "--drop-after", str(cls.DROP))
        cls.ignore = Server(cls.tmp, "--drop-after", str(cls.DROP), "--ignore-range")

    @classmethod
    def tearDownClass(cls):
        cls.drop.stop()
        cls.ignore.stop()
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def location(self, port):
        r = request("127.0.0.1", port, "HEAD", "/%s/resolve/main/%s" % (PIPER, VOICE))
        self.assertEqual(r.status, 302)
        return r.headers["Location"]

    def read_dropped(self, loc):
        u = urlsplit(loc)
        c = http.client.HTTPConnection(u.hostname, u.port, timeout=TIMEOUT)
        try:
            c.request("GET", u.path + "?" + u.query)
            r = c.getresponse()
            self.assertEqual(r.status, 200)
            self.assertEqual(int(r.headers["Content-Length"]), 50_000)
            with self.assertRaises(http.client.IncompleteRead) as cm:
                r.read()
            return cm.exception.partial
        finally:
            c.close()

    def test_drop_then_resume(self):
        data = self.files[PIPER][VOICE]
        loc = self.location(self.drop.port)
        partial = self.read_dropped(loc)
        self.assertEqual(partial, data[:self.DROP])
        r = follow(loc, {"Range": "bytes=%d-" % len(partial)})
        self.assertEqual(r.status, 206)
        self.assertEqual(sha256(partial + r.body), sha256(data))
        # Only the first request per file is dropped.
        self.assertEqual(follow(loc).body, data)
        log = json.loads(request("127.0.0.1", self.drop.port, "GET", "/_test/log").body)
        dropped = [e for e in log if "dropped_after" in e]
        self.assertEqual([e["dropped_after"] for e in dropped], [self.DROP])
        # Small files are served by the Hub itself, never dropped.
        r = request("127.0.0.1", self.drop.port, "GET", "/%s/resolve/main/voices.json" % PIPER)
        self.assertEqual(r.body, self.files[PIPER]["voices.json"])

    def test_ignore_range_answers_200(self):
        data = self.files[PIPER][VOICE]
        loc = self.location(self.ignore.port)
        partial = self.read_dropped(loc)
        self.assertEqual(len(partial), self.DROP)
        r = follow(loc, {"Range": "bytes=%d-" % len(partial)})
        self.assertEqual(r.status, 200)  # the client must start over
        self.assertIsNone(r.headers["Content-Range"])
        self.assertEqual(r.body, data)


if __name__ == "__main__":
    unittest.main(verbosity=2)
