-- The language an account chose in the client (issue 39): "pl", "en", "ru", "pt", "es",
-- "it", "cs", "nl" or "fr"; NULL until it chooses one (the browser's then applies).
ALTER TABLE accounts ADD COLUMN language TEXT;
