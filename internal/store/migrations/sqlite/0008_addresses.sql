-- One address, one mailbox (SQLite). Keep the PostgreSQL twin of this file in step.
--
-- Addresses used to be compared after a Unicode lower-casing that folds
-- look-alike spellings onto other people's addresses (U+0130 "İris" onto
-- "iris", the Kelvin sign onto "k"). Addresses are now kept in one form
-- (internal/mailaddr): an ASCII local part and the domain in its IDNA ASCII
-- form, so a key is always ASCII and holds an "@". A row kept before whose
-- address holds any other character gets a key no address can have: it stops
-- blocking the real owner's address, and nobody can sign in to it or be sent
-- a reset link for it by typing an address. Its data stays for the operator.
-- Running this again changes nothing.
UPDATE users SET email_normalized = 'legacy:' || id
WHERE email GLOB '*[^ -~]*' AND email_normalized <> 'legacy:' || id;

UPDATE waitlist SET email_normalized = 'legacy:' || id
WHERE email GLOB '*[^ -~]*' AND email_normalized <> 'legacy:' || id;
