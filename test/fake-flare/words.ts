/** Raw material for the seeded dataset. Lists are shuffled or sampled with the seed. */

const list = (words: string) => words.trim().split(/\s+/);

export const DEFAULT_DOMAINS = list('example.com acme.com globex.io initech.net umbrella.org');

/** Lowercase a-z only: usernames are `first.last[n]` and are parsed back by that shape. */
export const FIRST_NAMES = list(`
	alice bob carol dave erin frank grace heidi ivan judy mallory niaj olivia peggy rupert sybil trent
	victor walter wendy amir bianca chen dmitri elena fatima gustavo hana igor jamal kenji lucia marco
	nadia oscar priya quentin rosa sven tariq`);

export const LAST_NAMES = list(`
	smith johnson williams brown jones garcia miller davis martin lopez wilson anderson thomas taylor
	moore jackson lee perez white harris clark lewis robinson walker young allen king wright scott
	torres nguyen hill flores green adams nelson baker hall rivera campbell`);

/** Common leaked passwords; the generated list starts with these. */
export const COMMON_PASSWORDS = list(`
	123456 password 123456789 qwerty 12345678 111111 1234567890 iloveyou abc123 password1 admin
	letmein welcome monkey dragon sunshine princess football baseball shadow master trustno1 superman
	batman qwerty123 zaq12wsx passw0rd Password123! Welcome1 Summer2023! Winter2024 P@ssw0rd changeme
	hunter2 starwars whatever freedom michael charlie jordan23`);

/** Passwords with characters that need encoding in a URL path, and non-ASCII ones. */
export const AWKWARD_PASSWORDS = [
	'p@ss/w0rd?#1',
	'100% secure+',
	'correct horse battery staple',
	'a/b/c',
	'#hashtag2023',
	'50%off&more=yes',
	'contraseña123',
	'пароль2024',
	'mot de passe!',
	'日本語パス',
];

export const PASSWORD_WORDS = list(`
	summer winter autumn spring tiger falcon rocket pirate coffee matrix ninja soccer hockey cookie
	butterfly purple orange silver golden thunder secret flower cheese banana london paris berlin
	toronto montreal phoenix`);

export const PASSWORD_SUFFIXES = list('1 12 123 ! 2020 2021 2022 2023 2024 @1 # 99 007');

/** Hosts where credentials were seen used (auth domains). */
export const AUTH_HOSTS = list(`
	login.example.com sso.acme.com mail.globex.io portal.initech.net vpn.umbrella.org
	accounts.google.com login.microsoftonline.com github.com www.facebook.com www.linkedin.com
	signin.aws.amazon.com id.atlassian.com app.slack.com www.dropbox.com login.salesforce.com
	auth.okta.com secure.paypal.com www.netflix.com account.apple.com login.yahoo.com discord.com
	twitter.com www.instagram.com zoom.us`);

export const URL_PATHS = list(`
	signin login auth/login account/login sso/saml oauth2/authorize users/sign_in session login.php
	wp-login.php identity/login portal/logon`);

/** [slug id, display name] of the leak sources. */
export const SOURCES: Array<[string, string]> = [
	['collection-1', 'Collection #1'],
	['collection-2', 'Collection #2'],
	['combolist-acme', 'ACME combolist'],
	['antipublic', 'Anti Public Combo List'],
	['stealer-logs-2023', 'Stealer logs 2023'],
	['breachforums-dump', 'BreachForums dump'],
	['linkedin-2012', 'LinkedIn 2012'],
	['myspace-2008', 'MySpace 2008'],
	['rockyou2021', 'RockYou2021'],
	['exploit-in', 'Exploit.in'],
	['cit0day', 'Cit0day'],
	['raidforums-db', 'RaidForums database'],
	['telegram-combo-7', 'Telegram combo channel 7'],
	['pastebin-scrape', 'Pastebin scrape'],
	['redline-2024', 'RedLine stealer 2024'],
	['vidar-2024', 'Vidar stealer 2024'],
	['lumma-2025', 'Lumma stealer 2025'],
	['dropbox-2012', 'Dropbox 2012'],
	['adobe-2013', 'Adobe 2013'],
	['canva-2019', 'Canva 2019'],
];

/** Names of the identifier groups 100, 101 and 102. */
export const GROUP_NAMES = ['Acme brands', 'Subsidiaries', 'Executives'];

export const POLICY_NAMES = [
	'Executive protection',
	'Brand monitoring',
	'Source code leaks',
	'Payment cards',
	'Employee credentials',
	'Ransomware mentions',
	'Supplier exposure',
	'Exclude noise',
];

export const POLICY_KEYWORDS = list(`
	acme globex initech umbrella ceo cfo vpn github token password invoice ransomware lockbit dump
	combolist leak supplier bin-414720`);

/** Event source names; some need encoding in a query value. */
export const EVENT_SOURCES = [
	'darkforum',
	'ransomwatch',
	'leakbase',
	'ransom news',
	'hack&talk',
	'café-noir',
];

/** Event ids that need encoding in a query value. */
export const AWKWARD_EVENT_IDS = ['9 1?x', '42%done', '7+7', 'a#b=c'];

export const SEVERITIES = list('info info info low medium high critical');

/** Subdomains of the domain identifiers. */
export const SUBDOMAINS = list('vpn mail sso shop intranet portal api dev');

/** Kinds of the generated extra sources (when a test asks for more sources than the default). */
export const EXTRA_SOURCE_KINDS = list('Combolist Paste Stealer Breach Dump');
