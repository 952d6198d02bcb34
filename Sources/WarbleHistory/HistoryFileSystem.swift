import Foundation

/// Whether the history's folder is on a file system where SQLite's WAL mode is safe. WAL keeps its index in a
/// memory-mapped `-shm` file that every process using the database must share, which works only on one machine:
/// on a network or cluster file system, writers on two hosts do not see each other's index and the database can be
/// corrupted (SQLite's documentation: "WAL does not work over a network filesystem"), and the byte-range locks
/// SQLite relies on are broken or advisory on several of them. Such a folder is refused, never used.
public enum HistoryFileSystem {
    /// Network and cluster file systems by the type name Linux gives them (`/proc/self/mountinfo`), with a name for
    /// people; Darwin's answer (`volumeIsLocal`) is "network" for a network volume.
    static let refused: [String: String] = [
        "nfs": "NFS", "nfs4": "NFS", "cifs": "CIFS", "smb3": "SMB3", "smbfs": "SMB", "9p": "9p", "afs": "AFS",
        "ceph": "Ceph", "fuse.ceph": "Ceph", "coda": "Coda", "ncpfs": "NCP", "lustre": "Lustre", "gfs2": "GFS2",
        "ocfs2": "OCFS2", "gpfs": "GPFS", "glusterfs": "GlusterFS", "fuse.glusterfs": "GlusterFS",
        "fuse.sshfs": "SSHFS", "fuse.s3fs": "s3fs", "network": "a network volume",
    ]

    /// Throws when `directory` (or, before it exists, its nearest existing parent) is on a network or cluster file
    /// system; a file system that cannot be asked is let through (SQLite reports its own errors).
    public static func requireLocal(_ directory: URL) throws {
        try check(directory, fileSystem: fileSystem(of: directory))
    }

    /// The refusal for a folder on `fileSystem` (its type name: `nfs4`, `ext4`, …).
    static func check(_ directory: URL, fileSystem: String?) throws {
        guard let fileSystem, let name = refusedName(fileSystem) else { return }
        throw HistoryError(.unsafeFileSystem, """
            cannot keep the history at \(directory.path): its file system is \(name), a network or cluster file \
            system, where SQLite's locking and its WAL index are not safe (two servers writing there would corrupt \
            the database); give each server a folder on a local disk of its own
            """)
    }

    static func refusedName(_ fileSystem: String) -> String? { refused[fileSystem.lowercased()] }

    /// The file system type of `url`, or of its nearest existing parent (Linux: the longest mount point of
    /// `/proc/self/mountinfo` above it); nil when unknown.
    static func fileSystem(of url: URL) -> String? {
        var path = url.standardizedFileURL
        while !FileManager.default.fileExists(atPath: path.path), path.pathComponents.count > 1 {
            path.deleteLastPathComponent()
        }
        #if canImport(Darwin)
        guard let local = try? path.resourceValues(forKeys: [.volumeIsLocalKey]).volumeIsLocal else { return nil }
        return local ? "local" : "network"
        #else
        guard let table = try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8) else { return nil }
        return mountedType(of: path.resolvingSymlinksInPath().path, mountinfo: table)
        #endif
    }

    /// The type of the mount whose mount point is the longest prefix of `path` in a `mountinfo` table
    /// ("36 35 98:0 /root /mnt rw,noatime shared:1 - nfs4 server:/export rw"; spaces in paths as \040).
    static func mountedType(of path: String, mountinfo: String) -> String? {
        var best: (point: String, type: String)?
        for line in mountinfo.split(separator: "\n") {
            let halves = line.components(separatedBy: " - ")
            guard halves.count >= 2 else { continue }
            let fields = halves[0].split(separator: " ")
            guard fields.count >= 5, let type = halves[1].split(separator: " ").first else { continue }
            let point = String(fields[4]).replacingOccurrences(of: "\\040", with: " ")
            let inside = point == "/" || path == point || path.hasPrefix(point + "/")
            if inside, point.count >= (best?.point.count ?? -1) { best = (point, String(type)) }
        }
        return best?.type
    }
}
