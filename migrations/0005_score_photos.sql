-- A photo of the score display with a submitted score (issue #13), and the
-- per-season yes/no setting that requires one (changed with /league season setting).

-- The attachment's URL as Discord gave it; NULL: no photo.
ALTER TABLE scores ADD COLUMN photo_url TEXT
    CHECK (photo_url IS NULL OR length(photo_url) BETWEEN 1 AND 2000);

-- 1: /score refuses a score without a photo, and the score form refuses.
ALTER TABLE seasons ADD COLUMN photo_required INTEGER NOT NULL DEFAULT 0
    CHECK (photo_required IN (0, 1));
