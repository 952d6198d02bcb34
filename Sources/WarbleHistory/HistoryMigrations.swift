import GRDB

/// The schema, one migration per version; a database made by any earlier version is brought up to date at open.
enum HistoryMigrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE session (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    kind TEXT NOT NULL CHECK (kind IN ('speech', 'transcription', 'translation', 'clone')),
                    created_at REAL NOT NULL,
                    model TEXT,
                    voice TEXT,
                    source_language TEXT,
                    target_language TEXT,
                    duration REAL,
                    timings TEXT NOT NULL DEFAULT '{}'
                );
                CREATE INDEX session_created_at ON session(created_at);
                CREATE TABLE session_text (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    session_id INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,
                    role TEXT NOT NULL CHECK (role IN ('source', 'transcript', 'translation', 'srt')),
                    text TEXT NOT NULL,
                    UNIQUE (session_id, role)
                );
                CREATE TABLE session_audio (
                    session_id INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,
                    role TEXT NOT NULL CHECK (role IN ('input', 'output')),
                    sha256 TEXT NOT NULL,
                    bytes INTEGER NOT NULL,
                    format TEXT NOT NULL,
                    PRIMARY KEY (session_id, role)
                );
                CREATE INDEX session_audio_sha256 ON session_audio(sha256);
                -- Full-text search over the texts, kept in step with session_text by triggers.
                CREATE VIRTUAL TABLE session_text_fts USING fts5(text, content='session_text', content_rowid='id');
                CREATE TRIGGER session_text_ai AFTER INSERT ON session_text BEGIN
                    INSERT INTO session_text_fts(rowid, text) VALUES (new.id, new.text);
                END;
                CREATE TRIGGER session_text_ad AFTER DELETE ON session_text BEGIN
                    INSERT INTO session_text_fts(session_text_fts, rowid, text) VALUES ('delete', old.id, old.text);
                END;
                """)
        }
        return migrator
    }
}
