-- The standard genomes and the `default` preset (rules §2.5). Codes and digests are what
-- gmo-genome computes over the canonical DNA; a test checks them.
INSERT INTO genomes (code, digest, dna, salt) VALUES
    ('yf459m', X'f3c854d1db413e286b96a531bbf32fa04acee170f4a86a21300756dea3d048a1', 'AHHHACHASHHHHHHCHAHHASASAHHHSHHAAHHHCHAHHHHHACASSAS', 0),
    ('3gbkd6', X'1c17369a3391ea38cfb265d49f9b9d40a7c918084981fef638b639a02c65e2e4', 'AHHHSHHAACHACHACHAHHASASAAAAAAAAA', 0),
    ('zngq39', X'fd6171a75b7d4441c966491f2afb84cc629281b6e6b115b5ab5d8dece391be9c', 'AHHHAAHACHHHCHACHAHHACACSASAACACA', 0),
    ('2zef2n', X'17dcf1540089322303b9c09983a1d76c8b66ba245a0636087a866d5fd8b01404', 'AHHHCSHAAHHHCHACHAHHACASSASASSACS', 0),
    ('25x67a', X'117a63a81a4e843f4ae20e34d508b440d80d46e69518e5518f42a4c8fd4ec59a', 'AHHHACHAAHHHCHACHAHHASASSASACSAAC', 0),
    ('1hapeh', X'0c556744dd2310a4d54259a0f76ea6366248515c7df5b7815ac1579015d0bede', 'AHHHSHHAAHHHCHACHAHHACASSASASSACSAHHHSHHSCCHACHACHAHHASASAAAAAAAAA', 0);

INSERT INTO genome_names (name, code) VALUES
    ('pawn', 'yf459m'),
    ('rook', '3gbkd6'),
    ('knight', 'zngq39'),
    ('bishop', '2zef2n'),
    ('king', '25x67a'),
    ('queen', '1hapeh');

INSERT INTO presets (code, digest, text, salt) VALUES
    ('emcym3', X'7519ea0dc567fc4595183d1147aa3627a03285000f4ac76067a6c3035cd71602', '3gbkd6-zngq39-2zef2n-25x67a-1hapeh-2zef2n-zngq39-3gbkd6', 0);

INSERT INTO preset_names (name, code) VALUES ('default', 'emcym3');
