import Foundation
import Testing
@testable import WarbleHistory

@Suite("History file system")
struct HistoryFileSystemTests {
    @Test("a folder on NFS, SMB/CIFS, 9p or another network or cluster file system is refused, naming it and why")
    func refusesNetworkFileSystems() throws {
        let folder = URL(fileURLWithPath: "/mnt/shared/history")
        for (type, name) in [("nfs4", "NFS"), ("nfs", "NFS"), ("cifs", "CIFS"), ("smb3", "SMB3"), ("9p", "9p"),
                             ("ceph", "Ceph"), ("fuse.sshfs", "SSHFS"), ("network", "a network volume")] {
            let error = try #require(throws: HistoryError.self) { try HistoryFileSystem.check(folder, fileSystem: type) }
            #expect(error.reason == .unsafeFileSystem)
            #expect(error.message.contains("/mnt/shared/history"))
            #expect(error.message.contains("its file system is \(name),"))
            #expect(error.message.contains("a local disk of its own"))
        }
    }

    @Test("local file systems (ext4, XFS, Btrfs, tmpfs, overlay) and an unknown answer are accepted")
    func acceptsLocalFileSystems() throws {
        let folder = URL(fileURLWithPath: "/var/lib/warble/history")
        for type in ["ext4", "xfs", "btrfs", "tmpfs", "overlay", "local"] {
            try HistoryFileSystem.check(folder, fileSystem: type)
        }
        try HistoryFileSystem.check(folder, fileSystem: nil)
    }

    @Test("the mount table's longest mount point above a path gives its type (escaped spaces too)")
    func readsTheMountTable() {
        let table = """
            22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw
            30 22 0:40 /export /srv/shared rw,relatime shared:9 - nfs4 server:/export rw,vers=4.2
            31 22 0:41 / /srv/shared\\040copy rw - cifs //nas/share rw
            32 30 0:42 / /srv/shared/local rw - tmpfs tmpfs rw
            """
        #expect(HistoryFileSystem.mountedType(of: "/srv/shared/history", mountinfo: table) == "nfs4")
        #expect(HistoryFileSystem.mountedType(of: "/srv/shared", mountinfo: table) == "nfs4")
        #expect(HistoryFileSystem.mountedType(of: "/srv/shared copy/h", mountinfo: table) == "cifs")
        #expect(HistoryFileSystem.mountedType(of: "/srv/shared/local/h", mountinfo: table) == "tmpfs")
        #expect(HistoryFileSystem.mountedType(of: "/srv/sharedother", mountinfo: table) == "ext4")
        #expect(HistoryFileSystem.mountedType(of: "/var/lib/warble", mountinfo: table) == "ext4")
    }

    @Test("this machine's folder not made yet is asked through its parent, which is local, and the store opens there")
    func asksTheNearestExistingParent() throws {
        try withHistoryDirectory { directory in
            let missing = directory.appendingPathComponent("not/yet/made", isDirectory: true)
            let parent = try #require(HistoryFileSystem.fileSystem(of: directory.deletingLastPathComponent()))
            #expect(HistoryFileSystem.fileSystem(of: missing) == parent)
            #expect(HistoryFileSystem.refusedName(parent) == nil)
            try HistoryFileSystem.requireLocal(missing)
            _ = try HistoryStore(directory: missing)
            #expect(FileManager.default.fileExists(atPath: missing.appendingPathComponent("history.sqlite").path))
        }
    }
}
