-- Security (PostgreSQL). Keep the SQLite twin of this file in step.

-- Whether the profile's full name was set while the account's address was
-- proven (confirmed). Someone can sign up with an address they do not own;
-- when the real owner later proves it (password reset), the name that person
-- typed must not pass for the owner's: the API reports it as unverified until
-- the owner saves their profile.
ALTER TABLE profiles ADD COLUMN name_confirmed BOOLEAN NOT NULL DEFAULT FALSE;

-- Names of accounts confirmed before this column existed are taken as their
-- owners' own; nothing recorded says otherwise.
UPDATE profiles SET name_confirmed = TRUE
 WHERE id IN (SELECT id FROM users WHERE email_confirmed_at IS NOT NULL);
