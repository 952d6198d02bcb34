#!/usr/bin/env python3
"""A local imitation of the Hugging Face Hub's HTTP API, as huggingface_hub uses it.

Standard library only. Serves ROOT/{owner}/{name}/... (one directory per repository, its files the
working tree at one commit) on 127.0.0.1, for testing `warble models pull` without the network.
See tools/hub/README.md and /work/shared/specs/hub.md.
"""

import argparse
import hashlib
import hmac
import json
import os
import secrets
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, quote, unquote, urlsplit

CHUNK = 64 * 1024


def git_blob_sha1(data_len, chunks):
    h = hashlib.sha1(b"blob %d\0" % data_len)
    for c in chunks:
        h.update(c)
    return h.hexdigest()


def lfs_pointer(sha256, size):
    return ("version https://git-lfs.github.com/spec/v1\noid sha256:%s\nsize %d\n" % (sha256, size)).encode()


class Entry:
    """One file of a repository."""

    def __init__(self, repo_dir, path, lfs_threshold):
        self.path = path  # repository path, with "/"
        self.fs_path = os.path.join(repo_dir, *path.split("/"))
        self.size = os.path.getsize(self.fs_path)
        s1 = hashlib.sha1(b"blob %d\0" % self.size)
        s256 = hashlib.sha256()
        with open(self.fs_path, "rb") as f:
            while True:
                b = f.read(CHUNK)
                if not b:
                    break
                s1.update(b)
                s256.update(b)
        self.sha256 = s256.hexdigest()
        self.lfs = self.size > lfs_threshold
        if self.lfs:
            # As in git: the blob stored is the LFS pointer, so the git oid is the pointer's.
            pointer = lfs_pointer(self.sha256, self.size)
            self.pointer_size = len(pointer)
            self.oid = git_blob_sha1(len(pointer), [pointer])
        else:
            self.oid = s1.hexdigest()


class Repo:
    def __init__(self, repo_id, repo_dir, lfs_threshold):
        self.id = repo_id
        self.files = {}
        for dirpath, dirnames, filenames in os.walk(repo_dir):
            dirnames[:] = sorted(d for d in dirnames if d != ".git")
            for fn in sorted(filenames):
                full = os.path.join(dirpath, fn)
                rel = os.path.relpath(full, repo_dir).replace(os.sep, "/")
                self.files[rel] = Entry(repo_dir, rel, lfs_threshold)
        lines = "".join("%s\0%s\n" % (p, self.files[p].oid) for p in sorted(self.files))
        self.sha = hashlib.sha1(lines.encode()).hexdigest()
        dirs = set()
        for p in self.files:
            parts = p.split("/")[:-1]
            for i in range(1, len(parts) + 1):
                dirs.add("/".join(parts[:i]))
        self.dirs = dirs

    def tree_entries(self, base, recursive):
        """Entries under `base` ("" = root): directories and files, sorted by path; None if no such dir."""
        if base and base not in self.dirs:
            return None
        prefix = base + "/" if base else ""
        out = []
        for d in self.dirs:
            if d.startswith(prefix) and (recursive or "/" not in d[len(prefix):]):
                oid = hashlib.sha1(("tree\0%s\0%s" % (self.sha, d)).encode()).hexdigest()
                out.append({"type": "directory", "oid": oid, "size": 0, "path": d})
        for p, e in self.files.items():
            if p.startswith(prefix) and (recursive or "/" not in p[len(prefix):]):
                item = {"type": "file", "oid": e.oid, "size": e.size, "path": p}
                if e.lfs:
                    item["lfs"] = {"oid": e.sha256, "size": e.size, "pointerSize": e.pointer_size}
                out.append(item)
        out.sort(key=lambda x: x["path"])
        return out


class HubState:
    def __init__(self, args):
        self.root = os.path.abspath(args.root)
        self.token = args.token
        self.gated = set(args.gated or [])
        self.drop_after = args.drop_after
        self.corrupt = set(args.corrupt or [])
        self.page_size = args.page_size
        self.ignore_range = args.ignore_range
        self.lfs_threshold = args.lfs_threshold
        self.moved = dict(m.split("=", 1) for m in (args.moved or []))
        self.secret = secrets.token_bytes(16)
        self.lock = threading.Lock()
        self.log = []
        self.dropped = set()
        self.port = None
        self.repos = {}
        for owner in sorted(os.listdir(self.root)):
            od = os.path.join(self.root, owner)
            if not os.path.isdir(od) or owner.startswith("."):
                continue
            for name in sorted(os.listdir(od)):
                rd = os.path.join(od, name)
                if os.path.isdir(rd) and not name.startswith("."):
                    rid = owner + "/" + name
                    self.repos[rid] = Repo(rid, rd, self.lfs_threshold)

    @property
    def base(self):
        return "http://127.0.0.1:%d" % self.port

    @property
    def cdn_base(self):
        # Another host name for the same socket, so that the redirect really changes host.
        return "http://localhost:%d" % self.port

    def sign(self, path, expires):
        return hmac.new(self.secret, ("%s\n%d" % (path, expires)).encode(), hashlib.sha256).hexdigest()


class HubError(Exception):
    def __init__(self, status, code, message):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "hub-imitation/1"
    state: HubState = None  # set on the subclass

    def log_message(self, fmt, *args):  # quiet; the JSON log is at /_test/log
        pass

    # -- plumbing -----------------------------------------------------------------------------------

    def _record(self, status, extra=None):
        if self._raw_path.startswith("/_test/"):
            return
        rec = {
            "method": self.command,
            "host": self.headers.get("Host", ""),
            "path": self._raw_path,
            "query": self._query,
            "authorization": self.headers.get("Authorization") is not None,
            "range": self.headers.get("Range"),
            "status": status,
        }
        if extra:
            rec.update(extra)
        with self.state.lock:
            self.state.log.append(rec)

    def _send(self, status, headers, body=b"", record_extra=None):
        # Recorded before the answer goes out, so a client that reads /_test/log right after its
        # answer always finds its request there.
        self._record(status, record_extra)
        self.send_response(status)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD" and body:
            self.wfile.write(body)

    def _error(self, err):
        body = json.dumps({"error": err.message}).encode()
        self._send(err.status, [("Content-Type", "application/json"),
                                ("X-Error-Code", err.code), ("X-Error-Message", err.message)], body)

    def _json(self, obj, headers=()):
        self._send(200, [("Content-Type", "application/json")] + list(headers), json.dumps(obj).encode())

    def do_HEAD(self):
        self._dispatch()

    def do_GET(self):
        self._dispatch()

    def do_DELETE(self):
        self._dispatch()

    def _dispatch(self):
        u = urlsplit(self.path)
        self._raw_path = u.path
        self._query = u.query
        self._qs = parse_qs(u.query)
        try:
            self._route(u.path.split("/")[1:])
        except HubError as e:
            self._error(e)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    def _route(self, seg):
        host = self.headers.get("Host", "")
        if seg[:1] == ["_test"]:
            return self._test_route(seg[1:])
        if seg[:1] == ["cdn"]:
            if not host.startswith("localhost:"):
                raise HubError(404, "EntryNotFound", "The CDN answers on host localhost only")
            return self._cdn(seg[1:])
        if self.command not in ("GET", "HEAD"):
            raise HubError(405, "MethodNotAllowed", "Method not allowed")
        if seg[:2] == ["api", "models"] and len(seg) >= 4:
            repo = self._repo(unquote(seg[2]) + "/" + unquote(seg[3]))
            rest = seg[4:]
            if not rest or rest == [""]:
                return self._model_info(repo, "main")
            if rest[0] == "revision" and len(rest) == 2:
                return self._model_info(repo, unquote(rest[1]))
            if rest[0] == "tree" and len(rest) >= 2:
                base = "/".join(unquote(s) for s in rest[2:]).strip("/")
                return self._tree(repo, unquote(rest[1]), base)
            raise HubError(404, "NotFound", "Not found")
        if len(seg) >= 5 and seg[2] == "resolve":
            new = self.state.moved.get(unquote(seg[0]) + "/" + unquote(seg[1]))
            if new is not None:  # a renamed repository: a relative redirect, as the Hub answers
                loc = "/" + new + "/" + "/".join(seg[2:]) + ("?" + self._query if self._query else "")
                return self._send(307, [("Location", loc), ("Content-Type", "text/plain; charset=utf-8")],
                                  ("Temporary Redirect. Redirecting to %s" % loc).encode())
            repo = self._repo(unquote(seg[0]) + "/" + unquote(seg[1]))
            path = "/".join(unquote(s) for s in seg[4:])
            return self._resolve(repo, unquote(seg[3]), path)
        raise HubError(404, "NotFound", "Not found")

    def _repo(self, repo_id):
        repo = self.state.repos.get(repo_id)
        if repo is None:
            # The Hub answers 401 for "not found or private" alike.
            raise HubError(401, "RepoNotFound", "Repository not found")
        return repo

    def _revision(self, repo, rev):
        if rev not in ("main", repo.sha):
            raise HubError(404, "RevisionNotFound", "Invalid rev id: %s" % rev)

    def _check_gate(self, repo):
        if repo.id not in self.state.gated:
            return
        auth = self.headers.get("Authorization", "")
        if not auth:
            raise HubError(401, "GatedRepo",
                           "Access to model %s is restricted. You must have access to it and be authenticated "
                           "to access it. Please log in." % repo.id)
        if not (self.state.token and auth == "Bearer " + self.state.token):
            raise HubError(403, "GatedRepo",
                           "Access to model %s is restricted and you are not in the authorized list. "
                           "Visit https://huggingface.co/%s to ask for access." % (repo.id, repo.id))

    # -- routes -------------------------------------------------------------------------------------

    def _resolve(self, repo, rev, path):
        self._check_gate(repo)
        self._revision(repo, rev)
        e = repo.files.get(path)
        if e is None:
            raise HubError(404, "EntryNotFound", "Entry not found")
        if e.lfs:
            expires = int(time.time()) + 3600
            cdn_path = "/cdn/%s/%s" % (repo.id, e.sha256)
            sig = self.state.sign(cdn_path, expires)
            loc = "%s%s?file=%s&Expires=%d&Signature=%s" % (
                self.state.cdn_base, cdn_path, quote(path, safe=""), expires, sig)
            body = ("Found. Redirecting to %s" % loc).encode()
            return self._send(302, [
                ("Location", loc),
                ("X-Repo-Commit", repo.sha),
                ("X-Linked-Etag", '"%s"' % e.sha256),
                ("X-Linked-Size", str(e.size)),
                ("ETag", '"%s"' % e.oid),
                ("Content-Type", "text/plain; charset=utf-8"),
            ], body)
        return self._serve_file(repo, e, [("X-Repo-Commit", repo.sha), ("ETag", '"%s"' % e.oid)], cdn=False)

    def _cdn(self, seg):
        # /cdn/{owner}/{name}/{sha256}?file=...&Expires=...&Signature=...
        if len(seg) != 3:
            raise HubError(404, "NotFound", "Not found")
        cdn_path = "/cdn/" + "/".join(seg)
        try:
            expires = int(self._qs["Expires"][0])
            sig = self._qs["Signature"][0]
            path = self._qs["file"][0]
        except (KeyError, ValueError, IndexError):
            raise HubError(403, "AccessDenied", "Missing signature")
        if not hmac.compare_digest(sig, self.state.sign(cdn_path, expires)) or expires < time.time():
            raise HubError(403, "AccessDenied", "Bad or expired signature")
        repo = self.state.repos.get(seg[0] + "/" + seg[1])
        e = repo.files.get(path) if repo else None
        if e is None or e.sha256 != seg[2]:
            raise HubError(404, "NotFound", "Not found")
        return self._serve_file(repo, e, [("ETag", '"%s"' % e.sha256)], cdn=True)

    def _serve_file(self, repo, e, headers, cdn):
        size = e.size
        headers = headers + [("Accept-Ranges", "bytes"), ("Content-Type", "application/octet-stream")]
        start, status = 0, 200
        rng = self.headers.get("Range")
        if rng and not (cdn and self.state.ignore_range):
            r = rng.strip()
            if not r.startswith("bytes=") or "," in r:
                raise HubError(416, "RangeNotSatisfiable", "Unsupported range %s" % rng)
            a, _, b = r[6:].partition("-")
            try:
                if a == "":  # suffix range: the last b bytes
                    n = int(b)
                    start, end = max(0, size - n), size - 1
                else:
                    start = int(a)
                    end = min(int(b), size - 1) if b else size - 1
            except ValueError:
                raise HubError(416, "RangeNotSatisfiable", "Bad range %s" % rng)
            if start >= size or end < start:
                self._record(416)
                self.send_response(416)
                self.send_header("Content-Range", "bytes */%d" % size)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            status = 206
            headers.append(("Content-Range", "bytes %d-%d/%d" % (start, end, size)))
        else:
            end = size - 1
        length = end - start + 1
        drop = None
        if cdn and self.command == "GET" and self.state.drop_after is not None:
            key = (repo.id, e.path)
            with self.state.lock:
                if key not in self.state.dropped:
                    self.state.dropped.add(key)
                    drop = self.state.drop_after
        corrupt_at = size // 2 if (repo.id + "/" + e.path) in self.state.corrupt else -1
        # Recorded before the answer goes out (see _send), with the cut it will make.
        cut = drop if self.command == "GET" and drop is not None and drop < length else None
        self._record(status, {"dropped_after": cut} if cut is not None else None)
        self.send_response(status)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Length", str(length))
        self.end_headers()
        if self.command == "HEAD":
            return
        sent = 0
        with open(e.fs_path, "rb") as f:
            f.seek(start)
            pos = start
            while sent < length:
                n = min(CHUNK, length - sent)
                if drop is not None:
                    n = min(n, drop - sent)
                    if n <= 0:
                        break
                b = bytearray(f.read(n))
                if not b:
                    break
                if pos <= corrupt_at < pos + len(b):
                    b[corrupt_at - pos] ^= 0xFF
                self.wfile.write(b)
                sent += len(b)
                pos += len(b)
        if sent < length:
            self.wfile.flush()
            self.close_connection = True
            try:
                self.connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            return

    def _model_info(self, repo, rev):
        self._revision(repo, rev)
        blobs = self._qs.get("blobs", ["false"])[0].lower() in ("true", "1")
        siblings = []
        for p in sorted(repo.files):
            e = repo.files[p]
            s = {"rfilename": p}
            if blobs:
                s["size"] = e.size
                s["blobId"] = e.oid
                if e.lfs:
                    s["lfs"] = {"sha256": e.sha256, "size": e.size, "pointerSize": e.pointer_size}
            siblings.append(s)
        owner = repo.id.split("/")[0]
        self._json({
            "_id": hashlib.sha1(repo.id.encode()).hexdigest()[:24],
            "id": repo.id,
            "modelId": repo.id,
            "author": owner,
            "sha": repo.sha,
            "lastModified": "2025-01-01T00:00:00.000Z",
            "createdAt": "2024-01-01T00:00:00.000Z",
            "private": False,
            "disabled": False,
            "gated": "manual" if repo.id in self.state.gated else False,
            "downloads": 0,
            "likes": 0,
            "tags": [],
            "siblings": siblings,
        })

    def _tree(self, repo, rev, base):
        self._revision(repo, rev)
        recursive = self._qs.get("recursive", ["false"])[0].lower() in ("true", "1")
        entries = repo.tree_entries(base, recursive)
        if entries is None:
            raise HubError(404, "EntryNotFound", "Path %s not found in %s" % (base, repo.id))
        try:
            cursor = int(self._qs.get("cursor", ["0"])[0])
        except ValueError:
            raise HubError(400, "BadRequest", "Bad cursor")
        page = entries[cursor:cursor + self.state.page_size]
        headers = []
        if cursor + self.state.page_size < len(entries):
            q = "recursive=%s&cursor=%d" % ("true" if recursive else "false", cursor + self.state.page_size)
            nxt = "%s%s?%s" % (self.state.base, self._raw_path, q)
            headers.append(("Link", '<%s>; rel="next"' % nxt))
        self._json(page, headers)

    def _test_route(self, seg):
        if seg == ["log"] and self.command == "GET":
            with self.state.lock:
                return self._json(list(self.state.log))
        if seg == ["log"] and self.command == "DELETE":
            with self.state.lock:
                self.state.log.clear()
                self.state.dropped.clear()
            return self._send(204, [])
        raise HubError(404, "NotFound", "Not found")


def main(argv=None):
    ap = argparse.ArgumentParser(description="Local imitation of the Hugging Face Hub's HTTP API")
    ap.add_argument("--root", required=True, help="directory of {owner}/{name}/ repositories")
    ap.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (0: any free port)")
    ap.add_argument("--token", help="the token (hf_...) that opens gated repositories")
    ap.add_argument("--gated", nargs="+", action="extend", default=[], metavar="OWNER/NAME", help="gated repositories")
    ap.add_argument("--drop-after", type=int, metavar="BYTES",
                    help="the CDN closes the connection after BYTES of a body (first GET per file only)")
    ap.add_argument("--corrupt", action="append", default=[], metavar="OWNER/NAME/PATH",
                    help="serve this file with one byte flipped (repeatable)")
    ap.add_argument("--page-size", type=int, default=1000, help="tree listing entries per page")
    ap.add_argument("--ignore-range", action="store_true",
                    help="the CDN ignores Range and answers 200 with the whole file")
    ap.add_argument("--moved", action="append", default=[], metavar="OLD/NAME=NEW/NAME",
                    help="a renamed repository: resolve URLs of OLD answer 307 with a relative Location")
    ap.add_argument("--lfs-threshold", type=int, default=10_000, metavar="BYTES",
                    help="files larger than this are LFS files, redirected to the CDN (default 10000)")
    args = ap.parse_args(argv)
    if any("=" not in m for m in args.moved):
        ap.error("--moved takes OLD/NAME=NEW/NAME")
    if args.page_size < 1:
        ap.error("--page-size must be at least 1")

    state = HubState(args)
    handler = type("BoundHandler", (Handler,), {"state": state})
    server = ThreadingHTTPServer(("127.0.0.1", args.port), handler)
    server.daemon_threads = True
    state.port = server.server_address[1]
    print("listening on %s" % state.base, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
