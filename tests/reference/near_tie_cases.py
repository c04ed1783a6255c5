"""Near-tie inputs found by ``find_near_ties.py`` (generated: do not edit by hand).

Each case is one 1x16 group (``x`` has 16 values) or one 16x16 tile (256
values, row-major) with its global amax, all as float32 hex bit patterns
(exactly representable in ``dtype``). On each, the exact oracle and the
oracle mutated by ``mutation`` store different bits, so an implementation
taking that shortcut fails the test that uses the case. ``scale``/``pick4``
are the exact oracle's stored scale byte and choice, ``mutated_*`` the
mutated oracle's (recorded when the case was found).
"""

CASES = [
    {
        "mutation": "sum_pairwise",
        "block": "1x16",
        "err_mode": "mae",
        "bound": 256,
        "dtype": "float32",
        "gamax": 0x41A84F0C,
        "scale": 0x5E,
        "pick4": False,
        "mutated_scale": 0x63,
        "mutated_pick4": True,
        "x": (
            "bf1488c5 400074f4 4016aa80 3e3dd84b bfc0563f 3e74f03e 3d4dc87d bf864410 "
            "3fe9e058 3f983cb1 bfd78012 3f871826 bfda7e11 bf0492aa bf87d241 bf630ead "
        ),
    },
    {
        "mutation": "sum_pairwise",
        "block": "1x16",
        "err_mode": "mae",
        "bound": 448,
        "dtype": "bfloat16",
        "gamax": 0x40628BA3,
        "scale": 0x71,
        "pick4": True,
        "mutated_scale": 0x6C,
        "mutated_pick4": False,
        "x": (
            "3df60000 3ec00000 3ef00000 3f190000 bf130000 bd880000 3ed20000 3e7e0000 "
            "bf280000 bf410000 3e780000 3f160000 bed50000 3d1c0000 3d6f0000 3f3c0000 "
        ),
    },
    {
        "mutation": "sum_pairwise",
        "block": "1x16",
        "err_mode": "mse",
        "bound": 448,
        "dtype": "float32",
        "gamax": 0x41247B65,
        "scale": 0x62,
        "pick4": True,
        "mutated_scale": 0x5D,
        "mutated_pick4": False,
        "x": (
            "bf1b030f 3efb2415 3cfb5de1 bedf96f4 3edbb4c6 3eba6dae bf09c59e 3ed2d9dc "
            "be687e68 beb9fb41 3e6a790b be8bd4b5 bf0bde7f be65be23 be282072 bc7ca023 "
        ),
    },
    {
        "mutation": "sum_pairwise",
        "block": "1x16",
        "err_mode": "mse",
        "bound": 256,
        "dtype": "bfloat16",
        "gamax": 0x3F5952B5,
        "scale": 0x64,
        "pick4": False,
        "mutated_scale": 0x69,
        "mutated_pick4": True,
        "x": (
            "bc130000 bdd90000 bcf20000 bb7a0000 3de30000 3de30000 3d2d0000 3d290000 "
            "3cb90000 3d030000 bcac0000 bdac0000 3e030000 3cb30000 be230000 bd300000 "
        ),
    },
    {
        "mutation": "sum_reversed",
        "block": "1x16",
        "err_mode": "mae",
        "bound": 256,
        "dtype": "float32",
        "gamax": 0x44B5126C,
        "scale": 0x54,
        "pick4": False,
        "mutated_scale": 0x59,
        "mutated_pick4": True,
        "x": (
            "4056245a c1d33ce9 41c21078 c16197bd 420131b1 c1d8edf7 40f2c1d6 42378c20 "
            "428b2eea 41fd6ec1 3fb1e2ff c216e941 c20689dd c12ae25a 41fbce26 3fcbf7d2 "
        ),
    },
    {
        "mutation": "sum_reversed",
        "block": "1x16",
        "err_mode": "mae",
        "bound": 448,
        "dtype": "bfloat16",
        "gamax": 0x3DC895AA,
        "scale": 0x79,
        "pick4": False,
        "mutated_scale": 0x7D,
        "mutated_pick4": True,
        "x": (
            "bbb80000 bc930000 bb9f0000 3d020000 bc9f0000 bc850000 3d790000 bd7f0000 "
            "bca10000 3cd20000 bc830000 bc790000 bd5e0000 bd730000 3d110000 3d510000 "
        ),
    },
    {
        "mutation": "sum_reversed",
        "block": "1x16",
        "err_mode": "mse",
        "bound": 448,
        "dtype": "float32",
        "gamax": 0x3E882C14,
        "scale": 0x79,
        "pick4": False,
        "mutated_scale": 0x7E,
        "mutated_pick4": True,
        "x": (
            "3dd2e680 3ca8947f 3cc47cf8 3e08c8aa bd8f0583 bc9e498d 3c5cf910 bc96ee4c "
            "3d3a04a7 3c95b857 3d23c4a6 bbc173ac 3cf5420d 3e33c6c6 bdf279d0 be20d0df "
        ),
    },
    {
        "mutation": "sum_reversed",
        "block": "1x16",
        "err_mode": "mse",
        "bound": 256,
        "dtype": "bfloat16",
        "gamax": 0x42CBA02C,
        "scale": 0x55,
        "pick4": False,
        "mutated_scale": 0x5A,
        "mutated_pick4": True,
        "x": (
            "3fbb0000 3f680000 bfd50000 402c0000 bff40000 3e0c0000 40630000 3f800000 "
            "40ab0000 40840000 bfc00000 3efb0000 3fb40000 3f160000 c04b0000 c0020000 "
        ),
    },
    {
        "mutation": "err_recip_D",
        "block": "1x16",
        "err_mode": "mae",
        "bound": 256,
        "dtype": "float32",
        "gamax": 0x4379CB6F,
        "scale": 0x6D,
        "pick4": True,
        "mutated_scale": 0x68,
        "mutated_pick4": False,
        "x": (
            "c1850b64 bfc00c10 c184836f c080c253 4161cd42 c2841273 c19f6ea3 41d81d1b "
            "c13ea3d0 42448af1 c2384d74 419cb646 c2564322 c0b50d52 c16e076d 421f8054 "
        ),
    },
    {
        "mutation": "err_recip_D",
        "block": "1x16",
        "err_mode": "mae",
        "bound": 448,
        "dtype": "bfloat16",
        "gamax": 0x3E5D9766,
        "scale": 0x6F,
        "pick4": False,
        "mutated_scale": 0x73,
        "mutated_pick4": True,
        "x": (
            "3cbb0000 3c8c0000 3c8d0000 bc800000 3c4a0000 3d590000 bcab0000 3c140000 "
            "3ae90000 3d040000 3d700000 bccf0000 bbd00000 bc9d0000 bd500000 bcec0000 "
        ),
    },
    {
        "mutation": "err_recip_D",
        "block": "1x16",
        "err_mode": "mse",
        "bound": 448,
        "dtype": "float32",
        "gamax": 0x43439E76,
        "scale": 0x7D,
        "pick4": True,
        "mutated_scale": 0x79,
        "mutated_pick4": False,
        "x": (
            "41b0ed97 c2f683b1 c16ec06b c24c9f61 c1e479c9 40ed6bce c2142d77 c22fa1be "
            "40c12bee 41c1d4cf c2c427cc 41b06cd2 4235205c c22234fb 422cd5c0 42acd1ad "
        ),
    },
    {
        "mutation": "err_recip_D",
        "block": "1x16",
        "err_mode": "mse",
        "bound": 256,
        "dtype": "bfloat16",
        "gamax": 0x3E9BFFFF,
        "scale": 0x6E,
        "pick4": True,
        "mutated_scale": 0x69,
        "mutated_pick4": False,
        "x": (
            "3a9c0000 3d840000 bda80000 3c800000 bd560000 3d930000 bcba0000 bcb30000 "
            "3b5e0000 3da60000 3d680000 bd090000 3db70000 bc1a0000 bcea0000 3c0a0000 "
        ),
    },
    {
        "mutation": "fused_val",
        "block": "1x16",
        "err_mode": "mae",
        "bound": 256,
        "dtype": "float32",
        "gamax": 0x43BB079D,
        "scale": 0x59,
        "pick4": False,
        "mutated_scale": 0x5D,
        "mutated_pick4": True,
        "x": (
            "3eb4d27c 40314b97 413d79d5 40e60bfc c03451ca c18852e9 403eb397 c0001d26 "
            "40cfc7c9 c19b3022 c063c6cf c0b9088e 41c7a46e c16b25ca 40cdc244 418a2e6d "
        ),
    },
    {
        "mutation": "fused_val",
        "block": "1x16",
        "err_mode": "mae",
        "bound": 448,
        "dtype": "bfloat16",
        "gamax": 0x40FA4AEE,
        "scale": 0x5B,
        "pick4": False,
        "mutated_scale": 0x60,
        "mutated_pick4": True,
        "x": (
            "3e3d0000 3cd90000 3ec50000 3e130000 3e970000 bd410000 be7c0000 3ce50000 "
            "3d0a0000 3ea00000 3e960000 be4d0000 3df80000 be6d0000 be240000 3be60000 "
        ),
    },
    {
        "mutation": "fused_val",
        "block": "1x16",
        "err_mode": "mse",
        "bound": 448,
        "dtype": "float32",
        "gamax": 0x3E339B4C,
        "scale": 0x71,
        "pick4": True,
        "mutated_scale": 0x6C,
        "mutated_pick4": False,
        "x": (
            "3cacf6ad 3c5a0a9e bcbfb105 3d1b9b41 3b3d0ea8 3a7b65cb bbe7348d bca56b0d "
            "bd026d22 bd0a9008 bc54f879 3bfa4a6d 3ce2310c 3ac3fa19 3c81cea7 3cd693d9 "
        ),
    },
    {
        "mutation": "fused_val",
        "block": "1x16",
        "err_mode": "mse",
        "bound": 256,
        "dtype": "bfloat16",
        "gamax": 0x3F870E8E,
        "scale": 0x72,
        "pick4": False,
        "mutated_scale": 0x77,
        "mutated_pick4": True,
        "x": (
            "be880000 3dc10000 3eb30000 bd980000 3d320000 3e390000 bf2c0000 bed00000 "
            "be4f0000 bd170000 3c690000 be4a0000 be490000 3f080000 be6f0000 3ea70000 "
        ),
    },
    {
        "mutation": "fma_mse",
        "block": "1x16",
        "err_mode": "mse",
        "bound": 256,
        "dtype": "float32",
        "gamax": 0x4028758B,
        "scale": 0x66,
        "pick4": False,
        "mutated_scale": 0x6A,
        "mutated_pick4": True,
        "x": (
            "bf1236f2 bf03a372 be24957d 3eb32d4f 3e0ec515 bd1f751c 3c61168a 3dace045 "
            "be56f772 bd0ae2d7 3f02526b bdfcc9c2 3ea3cefd bdd76630 bead902e 3eead7cf "
        ),
    },
    {
        "mutation": "fma_mse",
        "block": "1x16",
        "err_mode": "mse",
        "bound": 448,
        "dtype": "bfloat16",
        "gamax": 0x43C0CDDA,
        "scale": 0x71,
        "pick4": False,
        "mutated_scale": 0x75,
        "mutated_pick4": True,
        "x": (
            "c17b0000 420d0000 41a00000 42490000 42150000 c2280000 41970000 41890000 "
            "41a50000 42400000 40a20000 c1310000 c1510000 42380000 3f820000 c2f30000 "
        ),
    },
    {
        "mutation": "inv_s_over_f",
        "block": "1x16",
        "err_mode": "mae",
        "bound": 256,
        "dtype": "float32",
        "gamax": 0x40E60249,
        "scale": 0x6F,
        "pick4": True,
        "mutated_scale": 0x6F,
        "mutated_pick4": True,
        "x": (
            "be7726af bed7a223 3da30571 c01142a2 bfa2944b bfe012fd 3e34342a bf6cbb20 "
            "3fbc222e bec0fe89 3e81dd31 be7add0b bf306d2a bfebe4fa bf66aa47 bf34980c "
        ),
    },
    {
        "mutation": "inv_s_over_f",
        "block": "1x16",
        "err_mode": "mae",
        "bound": 448,
        "dtype": "bfloat16",
        "gamax": 0x415A6666,
        "scale": 0x6E,
        "pick4": True,
        "mutated_scale": 0x6E,
        "mutated_pick4": True,
        "x": (
            "bea70000 bf2c0000 bf360000 bea70000 3f020000 3f800000 40110000 bf850000 "
            "3f610000 3f9c0000 3f230000 be5b0000 3ee90000 3f120000 bf920000 bf630000 "
        ),
    },
    {
        "mutation": "inv_s_over_f",
        "block": "1x16",
        "err_mode": "mse",
        "bound": 448,
        "dtype": "float32",
        "gamax": 0x41D39D4B,
        "scale": 0x7E,
        "pick4": True,
        "mutated_scale": 0x7E,
        "mutated_pick4": True,
        "x": (
            "c0121030 41c57b30 c1967412 c0095091 4113f22f 40f4fd04 410c5518 c0678708 "
            "c0fb6a7d 40b0586a 4122036f 410a461e bf49b1c2 40adb65a 413f3848 c0870fb5 "
        ),
    },
    {
        "mutation": "inv_s_over_f",
        "block": "1x16",
        "err_mode": "mse",
        "bound": 256,
        "dtype": "bfloat16",
        "gamax": 0x448EC0D5,
        "scale": 0x63,
        "pick4": False,
        "mutated_scale": 0x63,
        "mutated_pick4": False,
        "x": (
            "42650000 41790000 c2500000 c3490000 41cb0000 c20c0000 c2550000 c2160000 "
            "c2b70000 42040000 425d0000 beef0000 c2330000 41ff0000 c29a0000 c1590000 "
        ),
    },
    {
        "mutation": "inv_recip_recip",
        "block": "1x16",
        "err_mode": "mae",
        "bound": 256,
        "dtype": "float32",
        "gamax": 0x414A3F36,
        "scale": 0x56,
        "pick4": False,
        "mutated_scale": 0x56,
        "mutated_pick4": False,
        "x": (
            "3da6a908 bf35a6f3 bdaa6767 bc020477 3df3a324 be85f32b 3d983cb8 be69f421 "
            "3ee5e9a6 3e4e75dc 3d409750 3e47864b bdda38a9 3e0dcbe3 3d066278 3e984e3e "
        ),
    },
    {
        "mutation": "inv_recip_recip",
        "block": "1x16",
        "err_mode": "mae",
        "bound": 448,
        "dtype": "bfloat16",
        "gamax": 0x3F85C0FB,
        "scale": 0x75,
        "pick4": False,
        "mutated_scale": 0x75,
        "mutated_pick4": False,
        "x": (
            "3ded0000 3ddb0000 be810000 be6e0000 bdee0000 becf0000 bd220000 bea00000 "
            "3d900000 3ef10000 3dfd0000 3e300000 bdf30000 3e900000 bdd20000 be270000 "
        ),
    },
    {
        "mutation": "inv_recip_recip",
        "block": "1x16",
        "err_mode": "mse",
        "bound": 448,
        "dtype": "float32",
        "gamax": 0x43A466EC,
        "scale": 0x56,
        "pick4": False,
        "mutated_scale": 0x56,
        "mutated_pick4": False,
        "x": (
            "c029bccf c0154089 40433265 40bdacce bef6f562 40b38388 c0c9bbd8 402b816a "
            "40587cfc 40bfcd68 40a3f8ed 409b1667 c121fbee c0275299 c1041cc5 bfa4c026 "
        ),
    },
    {
        "mutation": "inv_recip_recip",
        "block": "1x16",
        "err_mode": "mse",
        "bound": 256,
        "dtype": "bfloat16",
        "gamax": 0x40FC57C5,
        "scale": 0x72,
        "pick4": False,
        "mutated_scale": 0x72,
        "mutated_pick4": False,
        "x": (
            "bc280000 c0160000 bd2d0000 40480000 bfdd0000 c0380000 40a40000 401f0000 "
            "c05e0000 c0950000 405e0000 3f650000 c06f0000 bfc70000 bf340000 bff10000 "
        ),
    },
    {
        "mutation": "q_div",
        "block": "1x16",
        "err_mode": "mae",
        "bound": 256,
        "dtype": "float32",
        "gamax": 0x3FC907E5,
        "scale": 0x5C,
        "pick4": True,
        "mutated_scale": 0x5C,
        "mutated_pick4": True,
        "x": (
            "3d149700 3d5d4f53 3cbdbff1 3d2fad61 bd66a84b bd8d2be6 bccc5e04 3d1980c9 "
            "bcfb49de 3b78d754 bd42a40b 3dcf683f 3d8bb36c bd8cba9e 3c471bfd 3c6c42b8 "
        ),
    },
    {
        "mutation": "q_div",
        "block": "1x16",
        "err_mode": "mae",
        "bound": 448,
        "dtype": "bfloat16",
        "gamax": 0x40FF999A,
        "scale": 0x72,
        "pick4": True,
        "mutated_scale": 0x72,
        "mutated_pick4": True,
        "x": (
            "bf380000 3fb40000 3f970000 bfd30000 3ee80000 3ed90000 3ffe0000 3f2a0000 "
            "bfb70000 be620000 3f330000 bf8e0000 bf7f0000 bfa60000 bf480000 3fd50000 "
        ),
    },
    {
        "mutation": "q_div",
        "block": "1x16",
        "err_mode": "mse",
        "bound": 448,
        "dtype": "float32",
        "gamax": 0x42A03884,
        "scale": 0x7A,
        "pick4": True,
        "mutated_scale": 0x7A,
        "mutated_pick4": True,
        "x": (
            "bfbd862a c0dfce1b 416fd255 c1aeae36 41ef0bc1 42177062 413ebd30 3fff871e "
            "419be1da c1ffb79e 4056d928 4071f156 c20ef19e c084c71b c0832ba4 40275bdd "
        ),
    },
    {
        "mutation": "q_div",
        "block": "1x16",
        "err_mode": "mse",
        "bound": 256,
        "dtype": "bfloat16",
        "gamax": 0x41CFFFFF,
        "scale": 0x5C,
        "pick4": True,
        "mutated_scale": 0x5C,
        "mutated_pick4": True,
        "x": (
            "3f040000 bf760000 bf6d0000 bf020000 3fd80000 bfac0000 be5c0000 bd010000 "
            "3ed60000 bf760000 3eca0000 bedb0000 bf400000 3ec50000 3f2a0000 3f910000 "
        ),
    },
    {
        "mutation": "base_other_assoc",
        "block": "1x16",
        "err_mode": "mae",
        "bound": 256,
        "dtype": "float32",
        "gamax": 0x42DE4994,
        "scale": 0x70,
        "pick4": False,
        "mutated_scale": 0x6F,
        "mutated_pick4": False,
        "x": (
            "41261093 c1a6f1e5 c1dd0d71 42151191 c21980e1 407cb45b c193994f c2060326 "
            "c2575747 c0f23e4b 4184a659 41b22d76 401ad8e9 c1563522 c208fcb1 423bd626 "
        ),
    },
    {
        "mutation": "base_other_assoc",
        "block": "1x16",
        "err_mode": "mae",
        "bound": 448,
        "dtype": "bfloat16",
        "gamax": 0x42940000,
        "scale": 0x6A,
        "pick4": False,
        "mutated_scale": 0x6B,
        "mutated_pick4": False,
        "x": (
            "c08f0000 411d0000 3fd20000 bfa30000 40b10000 3f850000 40d20000 c00c0000 "
            "3f8a0000 c15e0000 c1020000 c1510000 3e720000 c0900000 3f900000 c02e0000 "
        ),
    },
    {
        "mutation": "base_other_assoc",
        "block": "1x16",
        "err_mode": "mse",
        "bound": 448,
        "dtype": "float32",
        "gamax": 0x42C28304,
        "scale": 0x78,
        "pick4": True,
        "mutated_scale": 0x73,
        "mutated_pick4": False,
        "x": (
            "417d85fe c10a881c 4091785a c21d7641 bf7bfa29 c18df579 c0bd7d7f 41d0ed1c "
            "c1b122c0 c14b4e1d c06b0c01 c1157bb6 420c1798 c0852067 42120f78 414926a2 "
        ),
    },
    {
        "mutation": "base_other_assoc",
        "block": "1x16",
        "err_mode": "mse",
        "bound": 256,
        "dtype": "bfloat16",
        "gamax": 0x4379CE74,
        "scale": 0x67,
        "pick4": False,
        "mutated_scale": 0x68,
        "mutated_pick4": False,
        "x": (
            "41d40000 41650000 c19d0000 c0970000 c2720000 c1dc0000 c0320000 3e020000 "
            "41410000 c1a10000 415c0000 41450000 c2150000 423c0000 42010000 c2230000 "
        ),
    },
    {
        "mutation": "base_recip6",
        "block": "1x16",
        "err_mode": "mae",
        "bound": 256,
        "dtype": "float32",
        "gamax": 0x413F0CA7,
        "scale": 0x5A,
        "pick4": True,
        "mutated_scale": 0x56,
        "mutated_pick4": False,
        "x": (
            "3efc77bf bd81526d bf2132ac be4a93a8 be8395e4 3e204596 be632658 bd61173f "
            "3ea4b9cb bc9d5e6c 3e8ae030 3ded88e1 3e3452bd 3ed892ec 3d1d42da 3e6dcf1e "
        ),
    },
    {
        "mutation": "base_recip6",
        "block": "1x16",
        "err_mode": "mae",
        "bound": 448,
        "dtype": "bfloat16",
        "gamax": 0x43CDA7BA,
        "scale": 0x5E,
        "pick4": False,
        "mutated_scale": 0x5F,
        "mutated_pick4": False,
        "x": (
            "c0cb0000 41110000 41040000 c0540000 41340000 c1d50000 c1830000 c1080000 "
            "c11a0000 41130000 40460000 c0660000 41060000 c01e0000 c00d0000 c1020000 "
        ),
    },
    {
        "mutation": "base_recip6",
        "block": "1x16",
        "err_mode": "mse",
        "bound": 448,
        "dtype": "float32",
        "gamax": 0x3F37A251,
        "scale": 0x70,
        "pick4": False,
        "mutated_scale": 0x75,
        "mutated_pick4": True,
        "x": (
            "be5efbf5 3d10779a 3d8b14e7 bdc33dcc bd42af53 3d44d00c 3e196295 bd876a88 "
            "3e06fc3f 3e51b1e0 bd41f626 3e52a565 3d1406ef 3ddc9d15 bcaaa23a bd8775e5 "
        ),
    },
    {
        "mutation": "base_recip6",
        "block": "1x16",
        "err_mode": "mse",
        "bound": 256,
        "dtype": "bfloat16",
        "gamax": 0x413471C8,
        "scale": 0x55,
        "pick4": True,
        "mutated_scale": 0x56,
        "mutated_pick4": True,
        "x": (
            "be910000 be530000 3e7d0000 3e170000 3ca00000 bd800000 beae0000 3eab0000 "
            "bdcb0000 3e5d0000 be360000 be830000 bd4b0000 be310000 3ecb0000 be280000 "
        ),
    },
    {
        "mutation": "c4_from_a",
        "block": "1x16",
        "err_mode": "mae",
        "bound": 256,
        "dtype": "float32",
        "gamax": 0x3FAAC76C,
        "scale": 0x6A,
        "pick4": False,
        "mutated_scale": 0x6F,
        "mutated_pick4": True,
        "x": (
            "3edc96ea bea3c696 3e14ab23 be21f69b 3dfd7882 3d8a2bf5 bc840c6c bebfa6e0 "
            "becf98d7 becb6bb1 3c3e55fd 3dfd8581 3e2a5dd5 3bc44111 3e1ae314 bbe7f11d "
        ),
    },
    {
        "mutation": "c4_from_a",
        "block": "1x16",
        "err_mode": "mae",
        "bound": 448,
        "dtype": "bfloat16",
        "gamax": 0x3DD51C72,
        "scale": 0x79,
        "pick4": False,
        "mutated_scale": 0x7D,
        "mutated_pick4": True,
        "x": (
            "3d020000 3cec0000 3c7a0000 bcad0000 bcb50000 3c990000 bca10000 bd030000 "
            "3d890000 3cfd0000 bcf60000 bc0d0000 3d140000 3cf40000 3d1f0000 bbeb0000 "
        ),
    },
    {
        "mutation": "c4_from_a",
        "block": "1x16",
        "err_mode": "mse",
        "bound": 448,
        "dtype": "float32",
        "gamax": 0x41342C87,
        "scale": 0x65,
        "pick4": True,
        "mutated_scale": 0x64,
        "mutated_pick4": True,
        "x": (
            "3e355037 3e8863ec 3e3676ab be2e4284 be8fd06b be19cfc6 bed1ed63 bef0ff3b "
            "be48019d 3e94eb32 3e8f7e67 3f289936 3ecae658 bf567e27 bd1b4539 3efde55c "
        ),
    },
    {
        "mutation": "c4_from_a",
        "block": "1x16",
        "err_mode": "mse",
        "bound": 256,
        "dtype": "bfloat16",
        "gamax": 0x43E61E1D,
        "scale": 0x68,
        "pick4": True,
        "mutated_scale": 0x69,
        "mutated_pick4": True,
        "x": (
            "c0e90000 c1100000 424d0000 42230000 41500000 41240000 c20c0000 42350000 "
            "426a0000 418b0000 42a30000 c2470000 c1950000 bf2f0000 42840000 40070000 "
        ),
    },
    {
        "mutation": "s_recip",
        "block": "1x16",
        "err_mode": "mae",
        "bound": 256,
        "dtype": "float32",
        "gamax": 0x3E348D61,
        "scale": 0x75,
        "pick4": False,
        "mutated_scale": 0x76,
        "mutated_pick4": False,
        "x": (
            "bc1266b8 bcc494da bd40cb78 bd4cf09a bcc36d1c bc954fa7 3d9e8bd5 3c456324 "
            "bd88657e bd6d1050 3d783cc8 3e18574a ba05e49e be1122f8 bd70fa14 3d45b316 "
        ),
    },
    {
        "mutation": "s_recip",
        "block": "1x16",
        "err_mode": "mae",
        "bound": 448,
        "dtype": "bfloat16",
        "gamax": 0x43D61E1D,
        "scale": 0x75,
        "pick4": True,
        "mutated_scale": 0x70,
        "mutated_pick4": False,
        "x": (
            "c23e0000 419d0000 41e00000 42f70000 42130000 c3020000 41d30000 42dd0000 "
            "c2060000 c06e0000 c2560000 42a10000 418f0000 c2a50000 c2f00000 42510000 "
        ),
    },
    {
        "mutation": "s_recip",
        "block": "1x16",
        "err_mode": "mse",
        "bound": 448,
        "dtype": "float32",
        "gamax": 0x43C09145,
        "scale": 0x5D,
        "pick4": False,
        "mutated_scale": 0x5C,
        "mutated_pick4": False,
        "x": (
            "41abef6c c1922276 4157b539 41038e44 c1392e7d c16c87bb c16970e2 c14ba826 "
            "bff96130 c07e497f 4123fde6 bfdb784b 409fd1bc 3fa5462c c082ab3f 402ce2eb "
        ),
    },
    {
        "mutation": "s_recip",
        "block": "1x16",
        "err_mode": "mse",
        "bound": 256,
        "dtype": "bfloat16",
        "gamax": 0x43399999,
        "scale": 0x65,
        "pick4": False,
        "mutated_scale": 0x69,
        "mutated_pick4": True,
        "x": (
            "c1ca0000 41000000 40ff0000 3f4e0000 c0d30000 40bd0000 c20d0000 41770000 "
            "41aa0000 41a00000 c19d0000 41080000 42110000 41650000 41df0000 415a0000 "
        ),
    },
    {
        "mutation": "fold_sequential",
        "block": "16x16",
        "err_mode": "mae",
        "bound": 256,
        "dtype": "float32",
        "gamax": 0x42BDABDF,
        "scale": 0x54,
        "pick4": False,
        "mutated_scale": 0x59,
        "mutated_pick4": True,
        "x": (
            "bf943261 c016dd84 4077590f 3f8d0b4a 4053df49 3fd3dade 3fedb51a 3fd7122b "
            "c010734a 3eefee91 400d8d11 3eef4a88 3ec759c7 bf7f3ef7 4064e743 4025a9b2 "
            "c0439ece bfb24c3d bfbda9f9 be4bde2f 4022afe7 bf2b1587 3ffe8dd2 beab4c17 "
            "bfa4bf3a 3f27a284 404c833c c05866c2 be54ed15 3fb2b790 40199962 c04cf51c "
            "40406035 bf7797d2 3fc26430 3fb04724 40424349 bfec2c91 becb2435 bfc55ca3 "
            "c02d4612 4032b43b 403db849 bfb21b96 3d90b5c5 3f0454f9 c0371ee1 3fe53557 "
            "3fb47ba3 beae267f 400f7dfa 405b591d 3ec52d21 c02daf1c 3fe96406 3f42c8ba "
            "3fdf6d6f 3fb41fdc 405137e3 bf5a7165 3f6750d9 c009e960 3f825128 c0707c06 "
            "3f9cd8fb bfa1cda5 40150e54 3f8625de 3fcd3a6c 3fe28b55 bf234723 404b39b8 "
            "bfa6b7d6 c0065d63 3fa115ac be807a88 3fd857fa c0504d81 bfbf8eb4 3ecd7564 "
            "3e2b15cb bf82b3a2 402ace40 bfd45f24 bf774603 bf773111 bfc825ee 3f0b6601 "
            "3eda9119 bec1601e bf4b837b 3fd1554d 3ff543c2 c02923dc be38cf7b 4045dbeb "
            "3fe5e631 406bb4c9 c005d1a5 bf9a1761 40091346 bfaa6f08 4022d46b 3dcb67a7 "
            "3ffc9ae7 40571df2 3f270160 3da97123 401de4cf 40662358 c0338b54 3b3011d7 "
            "3f6b5940 4043c5d9 3f529a73 3fe218af 3d1ae294 3de059a6 bffc360d 3f67c2e1 "
            "c023c88b c0665871 3fbd8b25 3ecd7c26 bf7ab630 3f89209d c082157b 3ed44477 "
            "bfc6312b 4080cfa0 3c9c4659 3f4de606 bf834a29 bfbb3415 3f51df5b 3fd45650 "
            "3f1f8957 406f9a07 405363c7 3f8f1c00 408d3f3a bf16c2ab 40374e97 3f4a1acb "
            "c063f953 bfd8630a bff4b73a c0518aa5 3f6c1cca 4017d9f2 bf92ce3d c01374c4 "
            "c0145568 4003e2db c029e92e c07d18f2 3f0fdb72 3edb6f20 3f48b836 bc3cccb5 "
            "c089bca1 400121da bcb74e5c bebce8dc 3fad2c92 c04ae236 3f334f0b bdfc139c "
            "3fade1e2 3f1d4ff8 3ef2e0af 40178a9a 400d5bba 3f2eee11 bf122294 beff30b2 "
            "3e0af6d8 c01138b1 4027684c c003c7a5 3f0f6a8c 3fd06a7f bf5cadad c00861cd "
            "3c50384b 4019e8d0 be4f7071 3e8897bf 3efde07c befb2f5f 3ee31526 3e17f470 "
            "3fd2e201 bf2312f0 c00e9676 400d8f0d bfa170e2 bf92a308 c00cbde4 bf5c583a "
            "3f00ce71 3fc58224 3f24c133 3f945dec bf0c3c1e c04f59f0 3eaee248 3f0c6a08 "
            "3e1d9148 bed13e03 40139479 c07da043 3ef0367d bf95e9f1 3fd6425b c015093a "
            "c0126d95 bfba7dd6 3fdd51bb 3fccd21c bf07304e 40412ca7 4000be7e bf9e1d78 "
            "c002f70d bea4b1f4 c0809c68 c008dace c0143c0f c088a7b9 3f692c5a bfdbb0ac "
            "bf7fd47b c0578f5e 401cc5b4 4089e342 3f49229d c002ce28 c051ab64 3f8eaf75 "
            "bf778c5e beef7521 be9a73dc 3f8b1976 bf0e2a2b 3ff6cfe0 4014c4b6 3e879bb6 "
            "3e360766 bfe07409 bf686ba5 c0084fad c00ea7a1 be793122 40283c81 3ef58c7a "
        ),
    },
    {
        "mutation": "fold_sequential",
        "block": "16x16",
        "err_mode": "mae",
        "bound": 448,
        "dtype": "bfloat16",
        "gamax": 0x4322008C,
        "scale": 0x7E,
        "pick4": True,
        "mutated_scale": 0x7D,
        "mutated_pick4": False,
        "x": (
            "420c0000 c21e0000 c14d0000 42620000 414b0000 c1170000 418d0000 c2a90000 "
            "41970000 c2170000 c09f0000 41b10000 bf3b0000 40240000 41490000 427a0000 "
            "42670000 c2600000 42200000 c2140000 41cc0000 c1e70000 c2080000 42780000 "
            "421b0000 c16a0000 41a80000 c1b70000 c1ff0000 c2410000 41540000 c21c0000 "
            "42230000 41ef0000 c2660000 c26c0000 c25f0000 c22f0000 bfdd0000 408f0000 "
            "c2850000 3f660000 c2070000 41640000 c2830000 421d0000 c06c0000 41cf0000 "
            "c26e0000 417a0000 422c0000 c1890000 c1120000 41ae0000 c23e0000 41b70000 "
            "c1e10000 c0490000 42b60000 41a40000 41ba0000 40590000 c0c90000 c1190000 "
            "41820000 41f20000 42180000 41b80000 c20c0000 40f30000 42510000 c1800000 "
            "c20f0000 423f0000 c2750000 42440000 41040000 41c60000 bff90000 429f0000 "
            "42820000 41870000 c1d60000 41250000 c03d0000 40b90000 c2660000 41b30000 "
            "424f0000 42c40000 c1870000 c1e90000 42810000 422f0000 42ab0000 421d0000 "
            "419c0000 41ce0000 c1a10000 c0ca0000 41dd0000 c1b30000 c1c20000 42660000 "
            "c1ba0000 41d30000 c0390000 42200000 c2050000 c2440000 42210000 42740000 "
            "c20a0000 c2110000 41d90000 c0400000 c1ad0000 41e40000 41f50000 42dc0000 "
            "c1b00000 c01b0000 c2660000 41370000 42130000 bffb0000 c2ab0000 41dc0000 "
            "bf3f0000 42710000 c0b60000 41a50000 c1030000 42390000 c29c0000 c18c0000 "
            "42030000 41f60000 c01b0000 41e00000 c29d0000 42730000 40740000 42180000 "
            "c28d0000 c0c50000 c1520000 c2480000 c1da0000 41c30000 c3060000 c1bd0000 "
            "42020000 c10d0000 40180000 c2800000 c1dd0000 c1bb0000 41750000 42410000 "
            "3fc00000 c1df0000 c24e0000 bfd30000 c1b50000 c2a10000 c0d70000 c2610000 "
            "42420000 42290000 c0720000 c2750000 42070000 c1a90000 42060000 414c0000 "
            "41f50000 c1170000 c1940000 c22c0000 428d0000 c2860000 41680000 c27e0000 "
            "c2c60000 420a0000 c1820000 42520000 c18e0000 42110000 c0d10000 41850000 "
            "c23c0000 415a0000 bef90000 40c80000 431a0000 42840000 c2750000 c2820000 "
            "c24b0000 413f0000 c1950000 c2130000 c2550000 c1410000 c2a80000 42060000 "
            "41aa0000 421b0000 c2ca0000 c1810000 413d0000 42270000 c2b10000 408c0000 "
            "c24d0000 c17b0000 42980000 42ea0000 c1d80000 c28f0000 c1c00000 c1db0000 "
            "41ad0000 c2570000 c22f0000 c2380000 420a0000 c1140000 41bb0000 c1fc0000 "
            "42ab0000 41b10000 41900000 c1810000 426e0000 c1e40000 c1f50000 c1310000 "
            "c17b0000 42130000 c1890000 40a80000 c1dd0000 c1790000 42010000 41810000 "
            "42930000 427e0000 41100000 c2ae0000 c08e0000 c2a10000 c20e0000 c1ae0000 "
        ),
    },
    {
        "mutation": "fold_sequential",
        "block": "16x16",
        "err_mode": "mse",
        "bound": 256,
        "dtype": "float32",
        "gamax": 0x40E7E901,
        "scale": 0x66,
        "pick4": False,
        "mutated_scale": 0x6B,
        "mutated_pick4": True,
        "x": (
            "bf00a5f0 be0767fd 3e37f349 bf92026c bf3de5c8 3d985af8 bccafa28 bd47c142 "
            "be84bfd8 bf2e9359 3ee9f6cf bf790e16 bd8f80d3 be723ba3 bee3a508 3ed9ef93 "
            "bf02e1e6 bd971eec be9fe5dd bfa4f2b6 3f4e1490 bf3210a5 bf2d22bd bf34bc3e "
            "3f065bab bee2ed0e bdf410ff 3d1fb65b becca739 3ed3c52c be988b3e bf242bc9 "
            "bef3fc40 bea87f8a bdf48da9 bf7e7bbf 3de828d7 3e39897a 3e583fac 3d9f1105 "
            "be87de57 3e76e1ab 3f293e8f 3ef462a6 3ba6fa19 3f3769d5 3e521048 3e7a5ad7 "
            "bf45d71a be4662d5 3e892a76 bed23422 bddecbdf be132aa5 bf2d4bcd 3dd5a431 "
            "3e17a6e1 3fa36c2c 3f14e556 bf09a1e5 3e528c36 3ba329c3 bec26cdc 3ed88351 "
            "bd48ea1b bee15b4c beff965f 3f9c4783 bede6cd2 3fb28572 3f0e1b93 3e677853 "
            "be380630 bf5c99f4 3bef6876 3f4161c3 3f1e5db6 3d9a6d80 3e8c9938 3eb589eb "
            "bd20d68b 3e437827 bea81a41 bf21a336 3ec25419 3f8507e8 3fa48ddd be536806 "
            "3e2af821 bf235233 bef38ec9 3fce7863 3f1e7423 be78398e 3ef8c77b 3fa1d413 "
            "bea2eee3 3daabd4d 3f004f3f 3eda86a4 3ed6e78b bf5579ab be88333f bd5ab89f "
            "bf2a02b3 3f8a17ab 3e04ecbb 3e484a3d 3f46c403 bf49ff16 3b462558 3ea8e9ac "
            "3f0a7aa2 3f075312 3ca7c3ac bf997c2e 3ed01132 3e1116cf 3da86d78 3ebaafcc "
            "bda8a6b7 bfc18633 3e2ef5d3 bdf48e71 3f7582ac 3d93da56 bfa8abe8 3f9a3ead "
            "bf9a9fe5 beb3f6db 3ea07a97 3e32adda 3f31b00b 3ebd3d63 3e59d73c 3f59265d "
            "be9c410a bf978ae5 3f60970f 3d04009f 3f0e85d3 3e9899df bf3d81cc bea35907 "
            "bed258b1 be695ce5 3e585595 3eda5edc 3f0dafad be6a603c bf07d9cc bf892798 "
            "3dfcbee1 bf39685d bf35693d 3f5254f0 3f06c861 bb272228 3fb4161e 3f73de15 "
            "3ec24465 3d733248 3d0053d6 bf34361f bd981dad bd8180ca 3f4de062 bf27f941 "
            "3dd935f3 3cda7685 bf0b6964 3dbdc196 3e5cd5f3 bf5ec073 3e052709 beab65d2 "
            "3fbaca98 bcc8d36e bf4a674f 3f9eea8d bf2e0efc 3f39ef89 3dc0871f bf397960 "
            "3ec97e23 bf1420d6 3f4f3de3 be717407 bf8e2b72 3e346571 bf633407 bdd848f5 "
            "3e0d6895 3f244241 3ed57f6b be1b34ad bf6ab9b5 bf8b6329 bec9675b bec25ce8 "
            "3eed2c37 3e969213 bddfa89a be5c71ff 3d8db26e 3f65291b bee00723 be3f87ab "
            "be8de13f bee2fdae bf398f06 be43e3db be8a2822 bf6cdbad bddf96cb 3cdac0af "
            "bf32aaff 3ddc0588 bedfe28e 3cdd6e00 3ebd2706 be71980a becf7228 3f46e830 "
            "bec447b4 3f81a36e bc144ca2 bf2e52b0 be03aa27 3e4ce48b 3e1d7250 3f09a958 "
            "bee24401 bd8e9f03 3e89d53a 3f2830e1 3e0731ae 3d241cac 3f3739d7 bfa81cdb "
            "bcef1be3 3f5da41e 3ed7d49d bec3d7cc 3e6d77e0 3f3bc57e 3f7a8246 bf25a8ea "
            "bdc2396a 3e8a3580 3e88bab0 3ea98ca6 3c2f01c8 be11d1d1 3ea76d71 bd45bf66 "
        ),
    },
    {
        "mutation": "fold_sequential",
        "block": "16x16",
        "err_mode": "mse",
        "bound": 448,
        "dtype": "bfloat16",
        "gamax": 0x4036A966,
        "scale": 0x79,
        "pick4": True,
        "mutated_scale": 0x74,
        "mutated_pick4": False,
        "x": (
            "3d710000 3f3e0000 3f700000 bf970000 3d9a0000 bdac0000 be950000 bf290000 "
            "bf160000 bdba0000 3e1b0000 beb90000 be540000 bc1c0000 be950000 3edf0000 "
            "3e7e0000 beee0000 3ec60000 bd8b0000 3dcc0000 3f150000 beb90000 3e4e0000 "
            "bda80000 3ed10000 3f0e0000 3d8b0000 bb310000 be220000 bed20000 3ed60000 "
            "bef30000 bf2a0000 be070000 3f020000 3f750000 3df40000 3dd60000 3e5f0000 "
            "be100000 bc8f0000 bbe80000 3eb20000 3f030000 3d6b0000 be3b0000 bf430000 "
            "3f2c0000 3e660000 3cca0000 3db50000 3f1b0000 bf250000 be9f0000 bdc20000 "
            "beda0000 3f080000 3f110000 3dfa0000 bf2e0000 bf760000 3e960000 be4b0000 "
            "3eb40000 3ec20000 3e0f0000 be340000 3eab0000 3e8c0000 be6d0000 bdb70000 "
            "3ebf0000 bd5d0000 3e010000 bd040000 3f0b0000 be9e0000 3dda0000 3da50000 "
            "bf320000 3e760000 bdcc0000 3e250000 bfa30000 be460000 bf200000 bf3c0000 "
            "bcfa0000 3f040000 3f020000 bd7a0000 bd820000 bee50000 3f8e0000 bea90000 "
            "be000000 bf1a0000 bde30000 3ec00000 3d540000 3d170000 bdff0000 be260000 "
            "3f030000 3da50000 3e4a0000 3edc0000 3c3e0000 3f8c0000 3e260000 3e050000 "
            "3e940000 bf130000 3ec60000 3f580000 3e6c0000 bdea0000 bf650000 bded0000 "
            "3ea60000 3ea90000 be2b0000 3dc30000 3d6b0000 befb0000 3e3a0000 3da30000 "
            "3e0f0000 3ecd0000 3d840000 3e4c0000 bd510000 bf140000 3f720000 bd120000 "
            "3eb90000 becf0000 bf3d0000 3efc0000 beb60000 3be40000 bf1d0000 3dd90000 "
            "bf970000 3e280000 beff0000 be7e0000 bf040000 beab0000 beb10000 3ea70000 "
            "bcd80000 3f210000 be800000 3f640000 3e090000 3ed70000 3ed20000 bf0a0000 "
            "3efb0000 3eb30000 bee40000 3e940000 3c010000 3cc60000 3f110000 3d400000 "
            "beea0000 bd1c0000 3de00000 3aba0000 3dd90000 3eb10000 bf470000 be7a0000 "
            "bd050000 bf380000 3d340000 be480000 bf300000 3db00000 3e9b0000 3f060000 "
            "bd6a0000 3e970000 3f200000 beab0000 bf7f0000 3e300000 3e930000 bf1a0000 "
            "3e930000 3ef10000 bf3a0000 3f1d0000 3d960000 3f720000 3f370000 3e4a0000 "
            "bf4f0000 3f2d0000 bed00000 bef20000 3d330000 3eaa0000 bec30000 bd850000 "
            "3e9a0000 3f270000 beb50000 bf030000 bdcd0000 bf0c0000 3f920000 beac0000 "
            "3d090000 bd960000 3ed20000 be100000 3eb50000 3d900000 be7c0000 3dd20000 "
            "3edd0000 3f020000 bf3c0000 3e7a0000 3c970000 3e340000 3dc70000 3f6c0000 "
            "be690000 bf2c0000 3e810000 bf7d0000 bf050000 bc180000 bf1d0000 bf020000 "
            "bf7c0000 bf870000 3f9e0000 bc9c0000 3e780000 3e720000 be330000 3f260000 "
            "bf050000 3e9a0000 bdf70000 3eca0000 bea70000 bd500000 be280000 3e8b0000 "
        ),
    },
    {
        "mutation": "fold_adjacent",
        "block": "16x16",
        "err_mode": "mae",
        "bound": 256,
        "dtype": "float32",
        "gamax": 0x43202006,
        "scale": 0x57,
        "pick4": True,
        "mutated_scale": 0x52,
        "mutated_pick4": False,
        "x": (
            "c033b515 c07804a4 c000432f bf493cc1 bb975e34 3f667c41 c04e984d c05f571c "
            "40263ca8 bf98f117 bfd11f99 40238080 3edb1274 c016e2cc beabd2b1 40056194 "
            "40a18b3c 40b0316c 403b0b61 400e40f5 4083a2f5 3ed7374b bfc2a213 bf95c650 "
            "c0928056 be559daa c0001b9c 3f558199 c00fdf76 bf4ce65b bda24805 bf86cbea "
            "be9f6eb6 4025cb94 40177c70 3f1878c6 c0259312 3ef6131f 3fb7d9b9 3e4e8bc3 "
            "3f8f9273 bea45dc5 402d8a3a 4091343d 3fc6e43e bea4159d bf581635 3e56ea87 "
            "c01338cf bf8e08a6 c0941825 bece236c bf97773b c0a2e83c 40c9b868 3f9daf1e "
            "bf0901cd 3f0fb35b 3f2f1458 bf82ff65 4064e26c bf2cfb73 3fcbb880 c0124bbf "
            "405b0e66 3e9972a2 bfe54fb0 bf5af240 40269e4f c01a2c3a 3f78a104 3f91bb5c "
            "404ac5e3 3ffe8443 bf392b17 bef6bc2b 4006b451 3f45ed8d 40a6b1ff 3f5b255b "
            "bf5fba9f bfec3b75 401489e1 c026ca66 3fba3ad8 c010973b bfb0b488 3f6bf98f "
            "bfa67d8f c0120dc8 4078d31c be564049 3f82dafa bfcb0802 bfa2e89c c009f130 "
            "bd8edf20 403623c1 c02b1fe2 c0083e9a 3f32afa7 bd8f6c25 bfbb8272 3fac0c62 "
            "c08968e2 bf5d01ed 4064a2cf c094d9c6 bf88eebe bed1b6e3 3f9c2d3b c09466e6 "
            "bfcc9ede c01ef705 bebbff57 bfff29d3 c00bd13b bd6810bf bfbfa383 c0196903 "
            "3fb59224 3ff73064 bfc06aa0 bfafe3da 3fdcb4aa 4030cace 3f28a7fd 3fe81f7c "
            "c00bca5b 407008da 3f7bce51 bed6809b 403a5531 be800873 3fc4795c 3fde8458 "
            "c0456320 4046b34e 40a5e408 bf9249be bf299da7 bf9bd54f 3fb11fb5 be9b88d3 "
            "3fc1e057 408e2de8 bf78d253 3e5f5b60 3fbc975b bd800a63 3f6c298f c01ff0ba "
            "bd6c7571 c0787c06 bf35cf0b c09efe62 be9505f6 c06518f3 bf9056ea c04020a8 "
            "40226d1c bf84c69b 3f96ddc3 bf89cdde bfde21ef c02dc6f8 bfc40c73 40aea9b0 "
            "4090a6cb bf99f016 40073de8 bf215f9a c018d1fd 404916ef bf655a1d 3eb344db "
            "40469afb 3e678043 c08e27c4 400d3ecc 4024a695 bd97d113 3e206524 3f869f05 "
            "c01ac33a 3ff2c6ae 4058b78d 3fddbf86 bf8a25c7 400be0dc 4013f2f9 bfa4c0c0 "
            "c0a52de6 c018c1f3 bf872ac0 bf51ba0e 3fde5589 3faf8896 bfd418e1 c033c1f8 "
            "bfb7fad6 402642c5 406108d1 3ff4df2f bf8c39d0 bfe4aaa4 be91b6a2 be88e5cb "
            "bfa5c52c be97d01c bfe6f63f 3e998b21 c015007f c0291fa8 bf6ba132 40555469 "
            "402e56de c01e5e33 bf4df82c bf78ad5c 3fa89493 407afb14 be80730d bff4a3f2 "
            "409d8950 3f475d2d c062035d bddd79a4 bea13159 bf048c43 c0691922 402bf1ef "
            "c017d752 c05f6af5 c0493bd5 bfbac305 3fb666fc c00ec958 bf5c3566 bf28ac79 "
            "3e8dab78 c016c700 c00cd410 bf3654ab c08ee36b bfccad40 3f717fad c0a2e42a "
            "406eb211 403f066a bf318fec bfc038c9 bfe0ac8d c067ff98 c037923e 3e9cea24 "
        ),
    },
    {
        "mutation": "fold_adjacent",
        "block": "16x16",
        "err_mode": "mae",
        "bound": 448,
        "dtype": "bfloat16",
        "gamax": 0x4362148B,
        "scale": 0x7E,
        "pick4": True,
        "mutated_scale": 0x7D,
        "mutated_pick4": False,
        "x": (
            "42b70000 c1ca0000 c1160000 c2830000 c2a70000 c2a30000 c2e10000 43260000 "
            "41f50000 c2d10000 c2690000 c1700000 c2960000 c31c0000 42250000 c2ec0000 "
            "c2330000 41060000 41940000 42e10000 409a0000 42ac0000 42620000 c1930000 "
            "c2530000 c22a0000 c0130000 c2260000 423e0000 43170000 c3450000 41210000 "
            "40a30000 42270000 c2d10000 42a00000 c2c00000 41360000 c1150000 c1e60000 "
            "422f0000 c1c50000 429f0000 c03f0000 42ac0000 c2320000 42940000 c2e10000 "
            "42d00000 c0c00000 428e0000 42a00000 c18b0000 c1da0000 41a20000 423b0000 "
            "c2810000 c1300000 41bf0000 41df0000 c2980000 c1800000 c0f70000 c2be0000 "
            "41f60000 c2560000 c24d0000 42a80000 415d0000 42580000 42970000 c2a30000 "
            "417a0000 c2490000 419d0000 c1dd0000 42ad0000 40750000 c3020000 c2810000 "
            "c1650000 426c0000 c28a0000 41970000 c1b10000 c2a30000 427f0000 c3520000 "
            "41a50000 41f00000 c2cb0000 c26b0000 c2300000 40f20000 c2690000 41a90000 "
            "c3050000 c1810000 42140000 41b50000 43030000 c2110000 42710000 c2930000 "
            "40290000 c1cb0000 422a0000 c22a0000 c2b30000 42b90000 c3030000 41680000 "
            "c1790000 bf940000 c2100000 c1460000 c3230000 427d0000 c26b0000 42540000 "
            "c2790000 c0d10000 41250000 41cb0000 c2040000 c19a0000 42620000 421d0000 "
            "c1ce0000 42820000 c2150000 c25f0000 c2200000 43130000 42660000 c12d0000 "
            "c2960000 bfc10000 c2500000 c23a0000 40660000 c2340000 c1330000 c2ed0000 "
            "c2f10000 42720000 425a0000 c2140000 423c0000 42dd0000 c2c50000 419e0000 "
            "c2440000 41d80000 41110000 c3020000 c1f90000 43490000 425c0000 42b80000 "
            "c2020000 c2bc0000 41180000 c1da0000 c1710000 c14d0000 bfc90000 42cc0000 "
            "419f0000 41d10000 41010000 c2990000 3ff10000 c2800000 c29f0000 c2aa0000 "
            "42530000 41c40000 c2a80000 c2be0000 425a0000 425b0000 42970000 c20f0000 "
            "c29f0000 c2a80000 c25c0000 c2420000 c2830000 c2250000 42330000 c1010000 "
            "41090000 c15b0000 3fec0000 c2640000 c1e90000 c20f0000 c1c10000 c23b0000 "
            "c0300000 c2800000 43030000 c2030000 42a00000 c27d0000 42f60000 c1950000 "
            "c1e60000 c0ce0000 c1b20000 c25c0000 40740000 c2b70000 41740000 c1e60000 "
            "c1190000 c1c20000 c0d50000 c2710000 428a0000 41d90000 42660000 c1cd0000 "
            "419b0000 c27c0000 42340000 c1e50000 41ab0000 42440000 c27a0000 42e30000 "
            "c1c40000 c2290000 41290000 40bf0000 c1b00000 c2aa0000 c24f0000 c2840000 "
            "42ba0000 c0310000 42b70000 c2ce0000 42700000 c2170000 c2660000 c20c0000 "
            "c2570000 c2190000 41a70000 42a40000 41790000 c2530000 423b0000 428d0000 "
        ),
    },
    {
        "mutation": "fold_adjacent",
        "block": "16x16",
        "err_mode": "mse",
        "bound": 256,
        "dtype": "float32",
        "gamax": 0x3D9CC9B2,
        "scale": 0x75,
        "pick4": True,
        "mutated_scale": 0x71,
        "mutated_pick4": False,
        "x": (
            "bc7ccb69 ba599b56 baf50632 3c41ad3c 3c5147e0 3c9cd47c 3cba14e2 bc4e78fe "
            "bc82538f 3d0ced55 bc853cf8 bb2155b9 bccbe092 bc5bf6d8 3c29e7ca 3c8daf84 "
            "bccec0fe bd14ce7a 3c048d20 3ccf216f 3c81c406 3b62521c 3c51540a bc9ba53b "
            "3cd81dfa 3ccf2c2b 3b0878c9 3d0279c3 3bcd379e 3c7a81cb 3d2a82ea 3a8a4538 "
            "bc07836b 3b7c2860 bc5356bd ba92614e 3d0e9a1d 3c7dceda 3c93da57 bce3e685 "
            "3c655c46 bc134d8f bc799985 bcb6b24d bbfdb4df 3c3a50fd 3cdc5c4f bcae061a "
            "3bc4eb7f bc81be2e 3bb7573f 3c091036 3c805405 3cb2999a 3cab7814 bc56b2e5 "
            "3b6e5d51 3c82baea 3c1753c4 bc4ffac1 bc9b9658 3b05794a 3c063eca bd1e1a74 "
            "3bb0b7d7 bc891ef5 3b8054bc 3c5e43af bd1ac0ae bbd04315 bd1118b7 bbcdcb75 "
            "bc98292c 3c214b55 bab91ea3 3c432cc6 3cd69619 bc9cfdd5 bc133079 bc9887a4 "
            "3c75b2c8 3b8f2060 bb5d18ee 3c049481 3c8d78fb bc10bc4a bce60cdf 3b2258e4 "
            "bbd01967 3cc03e52 bb96160c bc4746fb 3b9073f7 bc43f47a bb78556c bc6157d1 "
            "3caed6fa 3c5c7996 3d26cf3e 39d00b74 bc573ed7 bc4fabf9 bcd1a775 3a7c7d45 "
            "bc886e00 bc3c9fdb 3c838997 baf1be1f bcb4526b 3c0e2681 3beba70b 3b75730e "
            "bb367941 3c80ff40 3b83fac8 3d0f25d5 b85c3335 3c13367a bbfbcc58 bbfd2994 "
            "3d1ba9c4 3bebdb06 3b21800e bd1937b6 3bea01fa bb1dcbac bb8dc151 3c1efddc "
            "bc9f1d1b bcad2849 bcbaaa02 bb48dbaf 3d247038 bbc5ec5d bc0f0df7 3bb0793a "
            "baaac69d bc7a50bd bc1d51d8 bcd4f111 bcc29c7e 3c0475d9 bb14f0bc 3c975584 "
            "3be1d28e bc875035 3ca49735 bce225d3 3bb9b568 bd0f925b 3c47e0a1 3ccc66ed "
            "3ba62954 3d1db44a 3d008fb0 bcd1407f 3bcbc4f1 3ba3f8cc 3c997ab5 3aa4c731 "
            "bb87aff7 ba964fa2 3c8bd8a6 3b7ccff1 3bf44691 3cc46d75 3c3cdf8f 3c8ebd0d "
            "3c49159a 3c85a959 bc2068db 3caadcb1 bc8ab2cf 3b211793 3cb0f42e 3b3b6061 "
            "bb6d8f31 bb59e01d 3c866e82 3b0b98a8 bc76c889 bd037cb6 bc5bf7c5 3ca79ab6 "
            "bc33093d 3c5888a6 bcaf6c3d bc35b6bd bb2c95d3 3c7c5885 3c6631cd bbf78a3e "
            "bc38c939 bb27d8df 3aacf801 3bcf1bab 3c6607a0 bbc9703b 3c1603fc bc89c52a "
            "bcb681a5 3a357baf bc994db9 3c2b2aa7 3cbed809 bc18e929 bc1fc284 b9b87d67 "
            "3cb101cd bb95e7e6 3d005e17 bc5d3a4a bc81cca8 ba4f9bbc 3c86779c 3bdd408e "
            "bc7cebf3 3c367171 3a350eda bc93a31e bb6e2691 3d060b10 3cb12645 bc30d179 "
            "bcff9019 bc67fddc 3b34b06d 3bcb7002 3c470652 3ccd67f6 bbb8e9fc 3ba82097 "
            "3caee30f bc48a3fe 3c8cf723 bc12a960 3c1a53df bd0073cc 3c9a45ee 3cbdcaa6 "
            "bcde452f bd15b1f4 3c0e6983 bce10eff bca498bb 3c06a46d bbeaf83e bc514f17 "
            "bc2342d0 bc285310 ba2141eb ba036a75 3c3721d3 babd3b51 3c846b97 3cf0f11f "
        ),
    },
    {
        "mutation": "fold_adjacent",
        "block": "16x16",
        "err_mode": "mse",
        "bound": 448,
        "dtype": "bfloat16",
        "gamax": 0x3D9F64F3,
        "scale": 0x7E,
        "pick4": True,
        "mutated_scale": 0x7A,
        "mutated_pick4": False,
        "x": (
            "bc880000 3b840000 3c960000 b90b0000 3bd20000 39910000 3c590000 bc570000 "
            "3c370000 3c0c0000 bc2a0000 3cd20000 bb9e0000 3c550000 3ba00000 bc420000 "
            "3cae0000 bc340000 3bfd0000 bd2e0000 bd330000 3c5b0000 bca70000 baca0000 "
            "bb060000 bc920000 3bce0000 bc250000 3d4c0000 3c3d0000 bc8b0000 3c0f0000 "
            "3a270000 3c830000 3c0b0000 bcb10000 3c3b0000 3c620000 bc9a0000 3a960000 "
            "3cb50000 3ba70000 3d100000 bb020000 bc360000 bc930000 3bc00000 3c540000 "
            "3c110000 3b8a0000 3b6b0000 bbe70000 bc670000 baa80000 baf80000 bc2d0000 "
            "bd390000 bcba0000 3be30000 3c8b0000 3ab00000 bb140000 3aaa0000 3c230000 "
            "3c570000 3ca50000 bb060000 3b430000 bb950000 39e60000 bc370000 bc940000 "
            "3c2f0000 3c980000 3d030000 bc4e0000 bc100000 3c140000 bc190000 bbb00000 "
            "b9830000 bc480000 bc0c0000 3bbd0000 bcc60000 3c800000 3ba50000 bbb10000 "
            "3c880000 3be00000 3c800000 3ad80000 bb610000 bb080000 3c700000 3cfd0000 "
            "bcf10000 bc3a0000 bc320000 38960000 3c8a0000 3c980000 bcc20000 bb640000 "
            "3c360000 bb5e0000 3c570000 bd060000 bbc50000 bce90000 bc670000 3bd20000 "
            "3b900000 3bb70000 bb260000 bcc60000 bd210000 3bbf0000 bc370000 3c960000 "
            "3cda0000 bc330000 3c500000 bb140000 3c6b0000 bc7e0000 3bc60000 3cad0000 "
            "bc8e0000 3d450000 3b7c0000 3c520000 3b570000 bc6c0000 bce30000 3bcf0000 "
            "3c0a0000 3c800000 bc8f0000 bbb20000 3c6a0000 bcab0000 39520000 3ba40000 "
            "3a090000 3d1a0000 3c600000 bb8a0000 bc8c0000 bb9a0000 39b60000 3cd90000 "
            "3c510000 39970000 3c170000 3c910000 bbc20000 3b810000 3cfb0000 3cbc0000 "
            "3bec0000 3ba60000 3cb90000 bac80000 bc580000 bc310000 bc500000 bc9f0000 "
            "bb150000 3ca40000 3b5a0000 bb4c0000 3cc80000 bc880000 bd430000 3cd20000 "
            "bc600000 3c2c0000 3c6a0000 bc510000 bbb50000 ba9c0000 bbe40000 3c720000 "
            "bc450000 bb310000 3be50000 bca90000 3c990000 bbc10000 3d290000 3ca60000 "
            "bbff0000 3d190000 bcb20000 bc610000 bd150000 bb870000 3b720000 3c550000 "
            "3cc80000 bcf40000 bc9f0000 bb0e0000 bb8c0000 3bb30000 3d3b0000 3a230000 "
            "bb4f0000 bccb0000 bbfb0000 3b3f0000 bc0b0000 3be80000 bc0b0000 3ce80000 "
            "bc640000 ba7f0000 bcac0000 bc1e0000 3c9f0000 bcc50000 3ce60000 bd000000 "
            "bcdc0000 bd220000 bc1a0000 bd020000 bc4c0000 b9100000 3c8c0000 bbb20000 "
            "3d2d0000 3bfe0000 bbaf0000 3cb10000 3d5e0000 3d210000 bcb80000 bc940000 "
            "3b990000 3cc40000 3bb10000 ba9c0000 39a80000 3b820000 3d470000 3b400000 "
            "bc890000 bbff0000 bb3d0000 bb420000 bc660000 3c960000 bcae0000 3c2e0000 "
        ),
    },
    {
        "mutation": "sum_reversed",
        "block": "16x16",
        "err_mode": "mae",
        "bound": 256,
        "dtype": "float32",
        "gamax": 0x400C837B,
        "scale": 0x61,
        "pick4": False,
        "mutated_scale": 0x66,
        "mutated_pick4": True,
        "x": (
            "3d8259d7 be17f4f7 be3495c3 be06b0d2 3e13c5d2 3deca148 3e0973b3 bd7a101a "
            "bdbe1d2f 3e1cef54 3e28b87e bd8ece4d 3e84ccbc bdcdb64e bdea986c bd8139ee "
            "bc60a654 3dbed88e 3e758ec0 bde7f06b bde466a3 bc381785 3d70d334 be24cd18 "
            "3da0b8c1 bd2aa406 be2d786e 3e24b4d2 3e106b93 3d51ce6b 3e4f8c35 3dddabf1 "
            "bd1e0bea be02b18a bc17ed2b 3c435520 3d880d8d bd550c31 bddfb167 3d49c151 "
            "3d309f22 3cb38e64 bd282551 be2e52ab 3e0cab96 be25b3bc bc85ae80 be8e5d02 "
            "3d60f773 be71fd7b bde60013 bda51cef b9c2b12e bd975bad 3c863c06 3dd0bc0e "
            "3e873e90 3c468050 be28f2cf be054250 bd6dfee0 3cea3684 bd411e7b be4c5f82 "
            "3d0f1156 be26f6d5 bc019e81 bcd312fa 3dcf5b8c bc9e4add bd4517f9 bcb0bfec "
            "3c44f7a1 3e3c7371 3c562874 be0842a0 bda56fd7 3e74a399 3e88dcb3 bcfda1c7 "
            "3dbd362b 3d977e85 3de09816 bd7f9b78 3cb59111 be8a490b bdf7fde3 bd761d39 "
            "3c93eb5f 3dbbdb3c 3c556236 3bc96c5c 3e054fea bde194d8 3e134d9b 3db2de56 "
            "bdfdb02a bcfce1b1 be2edfb2 3bb5836a bccc0815 bd7b5d27 3e149696 3dc71a01 "
            "bd30c1b9 3dd340fb bd5629c5 3e2f58c0 bdb216cb be18f21b 3dcfce0c bca325a9 "
            "bc7ba821 3da13add be37bde1 3d70be6e be9ada31 3cb47f93 3d07feb8 3c52b8cc "
            "bdda33c4 3d7d39f3 3e11797e 3e72b73d be6c5a8c 3da769fb be76a589 3e1a5726 "
            "bd8cf2ee 3d311880 3d6fe024 be87e128 3dee0e38 3e32b99d be09f875 be28c76d "
            "3e194065 3d47a2d3 be04d005 3e620b32 3e671fde bbb40d35 3e812bda 3e87138e "
            "bdfaf019 3e4f2c81 be786872 bd26f917 bdc5e1c7 3e1c5592 bd779fd1 be13e38f "
            "bddb01b9 bdbe5952 3d3065cb be128901 bea6294b be60f304 bdfa5464 bc2d7279 "
            "bb3ac290 3ca2272a bcc6f4b4 bda50694 be23368f 3d03beac 3cd92243 bd3d1cca "
            "3b68b6b9 be26e57f 3d2200a9 3db8e303 3cd45edb 3d9bcca4 bd8bad09 be01db23 "
            "bda16c97 3d550252 3dcc1427 3e1beb15 be285746 bdd54b54 bdd51729 3e1c0aed "
            "3a9af2a6 3e0df7b8 bcab2d55 bdac3fc8 bcd88ecf 3e936ba6 3b55434f bcc22066 "
            "be103833 3dab9b50 3dbd0769 3ca3759c bdfc8781 bd9eb1ad 3cebec1b 3d38dd08 "
            "3e7e4da7 bb3fe2e6 3e80a64f 3e2eda00 3cd29bf2 3df42d15 3d521152 3d58c32c "
            "bcfd32c2 3d034271 bca7bc79 be267071 3ddeee9f b9a9da07 be7677a0 3e44930e "
            "bd8d1da1 3e7f0492 3d313a60 3db69a4d bdc1b589 3e005fd0 be7f9e32 be08aa1e "
            "3e4c4916 bd8edb0b 3d5b2b45 3e00fd3c 3e57cb19 bdd540d8 3d250aa2 3d99103f "
            "3e9e2078 3d5044ba bd9b7cd7 3d4b47b8 bdbd3b34 be75ff27 bdd1cbe9 bd497224 "
            "3b82bd58 bc85af93 3df54813 3c83af3c 3e25cde8 3d4932c5 3d3948ec 3e32b593 "
            "bdf8eb7f bc1d1262 3d0193e9 3e7704cc 3da435f1 bdadce16 3dffe7d3 3e3715f5 "
        ),
    },
    {
        "mutation": "sum_reversed",
        "block": "16x16",
        "err_mode": "mae",
        "bound": 448,
        "dtype": "bfloat16",
        "gamax": 0x40E5C9C3,
        "scale": 0x7D,
        "pick4": False,
        "mutated_scale": 0x7E,
        "mutated_pick4": True,
        "x": (
            "3eaa0000 3f3d0000 3f990000 40170000 3da20000 c0150000 3ed40000 40240000 "
            "c03e0000 bf9d0000 3ddc0000 3fa80000 405e0000 401e0000 3e490000 3d780000 "
            "c07f0000 bf7a0000 bf230000 be0d0000 bea70000 c04f0000 c04a0000 405f0000 "
            "bf7a0000 3f970000 bfc40000 bfbf0000 40230000 3fe00000 400f0000 c05f0000 "
            "3f940000 402c0000 403c0000 3f8b0000 3f050000 bd720000 40950000 bf180000 "
            "c0110000 c06e0000 bfc20000 c0d60000 bb790000 bfaa0000 c01a0000 3f970000 "
            "bffe0000 40110000 bf830000 3fc20000 3fc10000 bf290000 bfb40000 c0320000 "
            "407f0000 3e950000 400c0000 c0630000 bfba0000 c08f0000 3f670000 3f3b0000 "
            "be750000 3e8b0000 bfd80000 3f7c0000 3fea0000 c0820000 bffa0000 40740000 "
            "403c0000 3f280000 40cd0000 40010000 bf530000 bfdb0000 bef90000 400f0000 "
            "bf740000 3d2f0000 40360000 405c0000 3fe20000 40160000 bfe70000 40450000 "
            "3f310000 3fdd0000 bfbf0000 c02e0000 c0770000 3fc90000 40480000 be4b0000 "
            "40320000 c04f0000 3f6b0000 c0030000 3fd90000 bfa50000 3fbd0000 40940000 "
            "bfca0000 c01c0000 beac0000 40350000 40370000 3e3b0000 c0230000 bfb40000 "
            "3e930000 bf8d0000 40950000 3f8c0000 40020000 beb80000 3fcd0000 bfed0000 "
            "bef70000 40570000 3fa50000 3fa40000 bf870000 c02c0000 3f6f0000 c0170000 "
            "c01d0000 3f890000 c01b0000 40ae0000 c04d0000 3fd60000 c0410000 3ffd0000 "
            "3f970000 3f860000 3f620000 bf9c0000 3fe90000 beff0000 40800000 c01b0000 "
            "bf710000 3d7c0000 3dfa0000 3fc70000 c0b50000 be970000 40190000 bf6a0000 "
            "bffe0000 3f9e0000 bff60000 bf2e0000 c0980000 3fa70000 bf5d0000 bebe0000 "
            "40170000 bd550000 3fa80000 bf3a0000 40610000 c00b0000 3fa40000 401f0000 "
            "3e290000 bfdb0000 3fe80000 40410000 bfc20000 40650000 3dc10000 3f5e0000 "
            "3f500000 40650000 bf6f0000 3fea0000 c0330000 3f5e0000 be800000 3ff20000 "
            "3e260000 bfb90000 3fd90000 bf590000 40180000 c04c0000 3f250000 40500000 "
            "40690000 bea40000 3f220000 3ffe0000 c0000000 3dc40000 40390000 bfe00000 "
            "3fc20000 3e820000 bea70000 c0870000 bf030000 c0980000 c0980000 be320000 "
            "3ebc0000 c03c0000 c05e0000 400c0000 3fca0000 3fc60000 3fd40000 406e0000 "
            "c0680000 40b30000 403a0000 c0010000 bd560000 3edd0000 3f340000 3f4b0000 "
            "40000000 bedb0000 405c0000 3fbf0000 bfd00000 bf9c0000 bf1c0000 bfeb0000 "
            "c00d0000 3d790000 3f9b0000 bfc90000 3f8e0000 3e780000 40490000 bf900000 "
            "3f980000 bfa70000 c0820000 c0330000 401f0000 3f530000 40590000 40670000 "
            "3fd40000 409e0000 c01c0000 bf6d0000 3f8f0000 bf040000 3f920000 bfb80000 "
        ),
    },
    {
        "mutation": "sum_reversed",
        "block": "16x16",
        "err_mode": "mse",
        "bound": 256,
        "dtype": "float32",
        "gamax": 0x41E340D6,
        "scale": 0x6E,
        "pick4": False,
        "mutated_scale": 0x72,
        "mutated_pick4": True,
        "x": (
            "bfb837e6 c0da3f3e 3f037a81 bfa3ef71 c05f50a7 3fc63679 c048a70f bf271caa "
            "c032f6e7 3ed76d9b 40849d42 3f1c1501 3f26bcfc c0c592b4 bfcb2f87 40253787 "
            "c08e0c39 c053547f c0288a21 4047ce62 c0e175da 4084605b 40d52098 c087aee7 "
            "bf5256fe c0629358 bfed210e bfe8ae26 c08009b7 40f3d308 4088ace3 409c8bf0 "
            "401d73e5 bfef13bb 3fe4dcc0 3f2f0a04 bfd0a05a c0505705 bed583c4 4052485b "
            "bf8fb36a bf8be47a bf02607a c05f3a8e 3f88e5cf bf34932e c058ab36 403dc267 "
            "c0582d6c c0c3ff33 c143f87e c11824bd bfa13de5 bf517641 3ec29fe8 3f44c90d "
            "404a671f c10860e0 40b23990 be511d71 c0c65f16 40a53465 4003d397 3f078040 "
            "40ab281e 412c947e c084c2ca c05c54ea 401bfebd c085dc9e c023639b 3f84d92d "
            "4080277b 40abcf4a 408a98a5 bff89938 c070c5d7 c0a1c541 40609cdd 41393d5d "
            "409d12c7 c0490931 40b58953 bf2680b1 c0cae86b 3f75bc45 40c8fb67 bf3bb5f8 "
            "40aa64d0 40af846a 413e2c03 c0e1d044 c00663ce 40aaa2e2 403b4085 408e7910 "
            "3fb884c3 40411267 40adee85 c099caeb 40b3326d 3f302b3f c06c6b47 c04c15f6 "
            "c00f191b c09dc9f6 3c4e9b05 c0aa9e03 3f9ae010 c084fb5a 3ef831c4 40987137 "
            "413799ae bef5a435 40934a28 408495e4 bfbdb03a 4037c9d0 40c3c888 be91a132 "
            "40911afa c0a60cee 400aece1 3f828a2c 40dd0edd 3fe1a5af 3ff25961 3fc2319c "
            "c02378b3 bff1fbbc bfff5e11 c006378b 405f9234 40c1c33f 410f334b be82b1f1 "
            "3e89cd66 c02680a8 c094ec8f c0037966 40ad0858 c0398974 408be513 bf644165 "
            "406b54b2 c1230cec c0cca34a bee6d2f3 3f9a2115 c0589c39 3f2f00ef 403fe197 "
            "4101ce63 3e935b00 bfa931de bf723d15 400f6841 3cbc1218 bfecb0b5 3ecf6af6 "
            "c0200fee c10e28e7 bfcea926 c07db778 be9383f2 40617041 c113fb78 c0c15b55 "
            "bfddcb2d 3ff3bf20 3f989877 4123f9ef c082bf8a 402f107c bf1fe06b 411c0782 "
            "bf87caf1 3f823ad6 c104dd0d c01193af 41042244 c021d7e6 40eab91b 40a3877d "
            "bda739b6 411d0bcb c0038070 3fa0ff96 3ed79533 3fc0c084 3fcd5661 c0a56903 "
            "c028699e c026f865 40829363 3eabf2ed 4100889b 4088b29e c08a8261 bfcaecc1 "
            "bfaab391 403ad515 bfc381c9 40016c02 3ffcceaa 4034bf35 40135c67 40832f49 "
            "c0bc5d22 c00becd1 bffa6c40 40a75ac2 408cf342 3e71c62c 3e8e6d04 c0c257d4 "
            "4069bc3a 3f865056 bf4e428a 40299ef1 bf1bbf35 c0c0969d c0d114b8 41343cbb "
            "c02762f9 c068c24d c0d3e4d2 3fcc2b67 bf285b44 40aeaea4 c088346e 405eb55c "
            "40236b5d c1066192 c060a10c c084ec5a 3fd188b5 bfd9b1da 400c6891 c10c4556 "
            "3c279b7c 401a1c62 c08dcf0e 408c1cc1 c0323d6c c09a64e3 409a6c89 c0a985c0 "
            "c078981f 3fa7f4af 4056a2ab 40f27a70 40717aaf 40b6f5cd 3f6de83b 4027d1b8 "
        ),
    },
    {
        "mutation": "sum_reversed",
        "block": "16x16",
        "err_mode": "mse",
        "bound": 448,
        "dtype": "bfloat16",
        "gamax": 0x3E3115B1,
        "scale": 0x7D,
        "pick4": False,
        "mutated_scale": 0x7E,
        "mutated_pick4": True,
        "x": (
            "bc150000 3d270000 3aab0000 3a910000 bc440000 3cac0000 3c820000 3d300000 "
            "bd7f0000 bd170000 3d8f0000 3cdc0000 bd120000 3d640000 bc830000 bb760000 "
            "bd910000 3c8b0000 bcdd0000 3dd50000 3a960000 bcf20000 3cc40000 bd230000 "
            "3dc90000 3c9b0000 3d020000 3caf0000 bbbe0000 3d9b0000 bd380000 3c8a0000 "
            "3da90000 3d830000 3bc70000 3d4f0000 3d890000 bcf00000 3cf10000 bcd50000 "
            "3c8c0000 bbc30000 3df30000 bb8b0000 3d5e0000 bd770000 3d9c0000 bda60000 "
            "3d320000 bd260000 bb8a0000 3cb00000 3ac10000 bd7f0000 3d2a0000 bdbf0000 "
            "bd650000 3c9e0000 3daa0000 3e020000 bd3d0000 3b9b0000 bc970000 3cda0000 "
            "3d400000 3d7e0000 bd8b0000 3c210000 bddc0000 3d620000 bdcd0000 bcf80000 "
            "bb7c0000 3cc30000 3d5b0000 bd8c0000 3e210000 bca30000 3cc20000 bc850000 "
            "bcfa0000 3cc10000 bcd20000 3dda0000 bc7c0000 3d190000 bd150000 3d820000 "
            "3d0d0000 bcba0000 bca80000 bd080000 bde40000 bcbf0000 3c740000 3cd30000 "
            "3dea0000 bd230000 3d880000 bcd00000 bdab0000 3cb90000 bd920000 bd940000 "
            "bcc70000 bdf70000 bd8e0000 bc860000 3d4d0000 bd8f0000 3cac0000 bb6c0000 "
            "3dc80000 3d050000 bb840000 bdac0000 bd490000 3dfb0000 3c860000 bb660000 "
            "3ce20000 bd870000 3cf20000 bc240000 bcfb0000 3c170000 bcd50000 3dea0000 "
            "3c760000 bc890000 bd4b0000 3c880000 3ca40000 3d300000 3cb60000 be250000 "
            "3dab0000 bd730000 bceb0000 bdd50000 bcae0000 3cc10000 3d8c0000 bcf40000 "
            "3c320000 3dc50000 bd920000 bcab0000 3cc40000 bd9b0000 bda50000 bc2f0000 "
            "3e0c0000 be020000 3ccd0000 bbb40000 3bd10000 3db70000 3bf40000 3df20000 "
            "3ddf0000 3c0d0000 bce60000 bd0b0000 bd9f0000 3cdb0000 3bb00000 bd5b0000 "
            "baeb0000 b9f60000 bd780000 3d8e0000 3de30000 bdca0000 bde30000 bcde0000 "
            "bd830000 3bf00000 bd8f0000 3d880000 bd310000 bd0d0000 3d200000 3d720000 "
            "3d9e0000 3d250000 3d9a0000 bbba0000 bd2d0000 bd1d0000 bd5d0000 bd730000 "
            "bd140000 3d720000 3cbc0000 3bdd0000 bc0a0000 3d100000 ba900000 3c640000 "
            "bdff0000 3c3c0000 3db50000 3be10000 3da20000 bcd10000 bd240000 bd2f0000 "
            "bcaa0000 3c780000 bd850000 3dad0000 3ca30000 3da10000 3d160000 bc920000 "
            "3d4e0000 3cdc0000 bbd70000 bb0f0000 bd4d0000 3bbd0000 3d650000 bd3a0000 "
            "3d840000 bd090000 bca80000 3bc60000 3da80000 3d0d0000 bd480000 bd880000 "
            "bcbe0000 bd410000 bca10000 3d9a0000 3d330000 bd280000 bd9c0000 bc150000 "
            "bd210000 bce20000 bda00000 bd850000 3d650000 bd4e0000 3d1e0000 bdef0000 "
            "bd030000 bdae0000 3cd40000 3d160000 3cc50000 3d2b0000 3c410000 bd830000 "
        ),
    },
]
