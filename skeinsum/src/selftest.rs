//! `--self-test` and `--list-backends`.
//!
//! The vectors are entries of the official Skein 1.3 golden file
//! `skein_golden_kat.txt` (NIST submission, Known Answer Tests), copied with
//! their header line so each can be found there; the message, key and result
//! are the file's hex, unchanged. They cover the three state sizes, a
//! message of a bit length that is no multiple of 8, MAC keys, outputs
//! shorter and longer than the state, and two tree shapes.

use skein_simd::{Backend, DynSkein, Params, Platform, StateSize, TreeParams};

use crate::format::decode_hex;
use crate::report::{Output, OutputClosed};

pub struct Vector {
    pub header: &'static str,
    pub state_bits: u64,
    pub output_bits: u64,
    pub message_bits: u64,
    pub message: &'static str,
    pub key: &'static str,
    /// (Yl, Yf, Ym) for tree entries.
    pub tree: Option<(u8, u8, u8)>,
    pub result: &'static str,
}

impl Vector {
    /// The digest `backend` computes for this vector (lowercase hex).
    fn compute(&self, backend: Backend) -> Result<String, String> {
        let bytes = |h: &str| {
            decode_hex(h.as_bytes()).ok_or_else(|| format!("{}: bad built-in hex", self.header))
        };
        let (message, key) = (bytes(self.message)?, bytes(self.key)?);
        let mut params = Params::new()
            .output_bits(self.output_bits)
            .key(&key)
            .backend(backend);
        if let Some((leaf, fan_out, height)) = self.tree {
            params =
                params.tree(TreeParams::new(leaf, fan_out, height).map_err(|e| e.to_string())?);
        }
        let state = StateSize::from_bits(self.state_bits).ok_or("bad built-in state size")?;
        let mut hasher = DynSkein::new(state, &params).map_err(|e| e.to_string())?;
        hasher.update_bits(&message, self.message_bits);
        Ok(hex::encode(hasher.finalize_vec()))
    }
}

/// Run every vector on every usable backend; print one summary line per
/// backend (and one line per mismatch); true if all matched.
pub fn run(out: &mut Output) -> Result<bool, OutputClosed> {
    let mut all_ok = true;
    for backend in Backend::available() {
        let mut ok = 0;
        for vector in VECTORS {
            match vector.compute(backend) {
                Ok(digest) if digest == vector.result => ok += 1,
                Ok(digest) => out.line(
                    format!(
                        "backend {backend}: MISMATCH {}\n  expected {}\n  computed {digest}\n",
                        vector.header, vector.result
                    )
                    .as_bytes(),
                )?,
                Err(e) => out.line(
                    format!("backend {backend}: ERROR {}: {e}\n", vector.header).as_bytes(),
                )?,
            }
        }
        all_ok &= ok == VECTORS.len();
        out.line(format!("backend {backend}: {ok}/{} vectors ok\n", VECTORS.len()).as_bytes())?;
    }
    Ok(all_ok)
}

/// One line per usable backend, the automatic choice first:
/// `NAME<TAB>what it is chosen for`.
pub fn list_backends(out: &mut Output) -> Result<(), OutputClosed> {
    let auto = Platform::detect();
    for backend in Backend::available() {
        let chosen: Vec<String> = [StateSize::S256, StateSize::S512, StateSize::S1024]
            .into_iter()
            .filter(|_| auto.backend() == backend)
            .map(|state| format!("Skein-{}", state.bits()))
            .collect();
        let note = if chosen.is_empty() {
            "available (use --backend)".to_string()
        } else {
            format!("automatic for {}", chosen.join(", "))
        };
        out.line(format!("{backend}\t{note}\n").as_bytes())?;
    }
    Ok(())
}

/// The golden file's 128-byte 'incrementing' message (0xff down to 0x80).
const INCREMENTING_128: &str = concat!(
    "fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0efeeedecebeae9e8e7e6e5e4e3e2e1e0dfdedddcdbdad9d8d7d6d5d4d3d2d1d0",
    "cfcecdcccbcac9c8c7c6c5c4c3c2c1c0bfbebdbcbbbab9b8b7b6b5b4b3b2b1b0afaeadacabaaa9a8a7a6a5a4a3a2a1a0",
    "9f9e9d9c9b9a999897969594939291908f8e8d8c8b8a89888786858483828180",
);

/// The golden file's 128-byte 'random' message.
const RANDOM_128: &str = concat!(
    "fbd17c26b61a82e12e125f0d459b96c91ab4837dff22b39b78439430cdfc5dc878bb393a1a5f79bef30995a85a129233",
    "39ba8ab7d8fc6dc5fec6f4ed22c122bbe7eb61981892966de5cef576f71fc7a80d14dab2d0c03940b95b9fb3a727c66a",
    "6e1ff0dc311b9aa21a3054484802154c1826c2a27a0914152aeb76f1168d4410",
);

pub const VECTORS: &[Vector] = &[
    Vector {
        header: ":Skein-256:   256-bit hash, msgLen =  1024 bits, data = 'incrementing'",
        state_bits: 256,
        output_bits: 256,
        message_bits: 1024,
        message: INCREMENTING_128,
        key: "",
        tree: None,
        result: "180de106a70401ba38f2597c25cbefc736dfd88d90f2d3352e0eb255afb6db63",
    },
    Vector {
        header: ":Skein-512:   512-bit hash, msgLen =  1024 bits, data = 'incrementing'",
        state_bits: 512,
        output_bits: 512,
        message_bits: 1024,
        message: INCREMENTING_128,
        key: "",
        tree: None,
        result: concat!(
            "91cca510c263c4ddd010530a33073309628631f308747e1bcbaa90e451cab92e5188087af4188773a332303e6667a7a2",
            "10856f742139000071f48e8ba2a5adb7",
        ),
    },
    Vector {
        header: ":Skein-1024: 1024-bit hash, msgLen =  2048 bits, data = 'incrementing'",
        state_bits: 1024,
        output_bits: 1024,
        message_bits: 2048,
        message: concat!(
            "fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0efeeedecebeae9e8e7e6e5e4e3e2e1e0dfdedddcdbdad9d8d7d6d5d4d3d2d1d0",
            "cfcecdcccbcac9c8c7c6c5c4c3c2c1c0bfbebdbcbbbab9b8b7b6b5b4b3b2b1b0afaeadacabaaa9a8a7a6a5a4a3a2a1a0",
            "9f9e9d9c9b9a999897969594939291908f8e8d8c8b8a898887868584838281807f7e7d7c7b7a79787776757473727170",
            "6f6e6d6c6b6a696867666564636261605f5e5d5c5b5a595857565554535251504f4e4d4c4b4a49484746454443424140",
            "3f3e3d3c3b3a393837363534333231302f2e2d2c2b2a292827262524232221201f1e1d1c1b1a19181716151413121110",
            "0f0e0d0c0b0a09080706050403020100",
        ),
        key: "",
        tree: None,
        result: concat!(
            "842a53c99c12b0cf80cf69491be5e2f7515de8733b6ea9422dfd676665b5fa42ffb3a9c48c217777950848cecdb48f64",
            "0f81fb92bef6f88f7a85c1f7cd1446c9161c0afe8f25ae444f40d3680081c35aa43f640fd5fa3c3c030bcc06abac01d0",
            "98bcc984ebd8322712921e00b1ba07d6d01f26907050255ef2c8e24f716c52a5",
        ),
    },
    Vector {
        header: ":Skein-1024: 1024-bit hash, msgLen =  1023 bits, data = 'random'",
        state_bits: 1024,
        output_bits: 1024,
        message_bits: 1023,
        message: RANDOM_128,
        key: "",
        tree: None,
        result: concat!(
            "542f2abc55558fb40de3688d3cda41d2209b9f6cf7b3cb47b365023c14e9002fb2d58d835db83007f58e60aa1503c949",
            "0787c0b1a1e2a9218c8bb1d823f905d46587091e99a22c5536120c5f1fdc65f7752290aba23785b931e98d99bfd50db8",
            "e67e93404d446f50accc0b7911848c5d5a9900607b18a32a905f484ab252b6cf",
        ),
    },
    Vector {
        header: ":Skein-512:   512-bit hash, msgLen =     7 bits, data = 'random+MAC'",
        state_bits: 512,
        output_bits: 512,
        message_bits: 7,
        message: "d3",
        key: "cb41f1706cde09651203c2d0efbaddf847a0d315cb2e53ff8bac41da0002672e",
        tree: None,
        result: concat!(
            "b1abeb7d244ed18498875218857678bacc0cf2991742e37f363b8cb8ed7f7046428c079c0269d0c713d8a5cdf2ee23d6",
            "a9ded6e2af48eb040dfa5f64fdb4d479",
        ),
    },
    Vector {
        header: ":Skein-256:   256-bit hash, msgLen =   512 bits, data = 'random+MAC'",
        state_bits: 256,
        output_bits: 256,
        message_bits: 512,
        message: concat!(
            "d3090c72167517f7c7ad82a70c2fd3f6443f608301591e598eadb195e8357135ba26fede2ee187417f816048d00fc235",
            "12737a2113709a77e4170c49a94b7fdf",
        ),
        key: "cb41f1706cde09651203c2d0efbaddf8",
        tree: None,
        result: "b1b8c18188e69a6ecae0b6018e6b638c6a91e6de6881e32a60858468c17b520d",
    },
    Vector {
        header: ":Skein-512:   160-bit hash, msgLen =  1024 bits, data = 'zero'",
        state_bits: 512,
        output_bits: 160,
        message_bits: 1024,
        message: concat!(
            "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000",
            "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000",
            "0000000000000000000000000000000000000000000000000000000000000000",
        ),
        key: "",
        tree: None,
        result: "9cc1810ddfe971cf71fed0815df862926c85ca6e",
    },
    Vector {
        header: ":Skein-1024: 2056-bit hash, msgLen =  1024 bits, data = 'random'",
        state_bits: 1024,
        output_bits: 2056,
        message_bits: 1024,
        message: RANDOM_128,
        key: "",
        tree: None,
        result: concat!(
            "56a0cab1ad315859da7a6cfc35807cbfe039af06ca4b8671c053360bda0b17c14a9eb5eb2abb01b0db3f45c03cd30c69",
            "d7c1b70c5c9ef74c06fb3aef0c843ce9b4c1ba2294ddb5c71cab692cedc1e6f908c471b38c0c583418b55aefddfe08ab",
            "a4055d0d19edb5ccba16c3e288471efe463e6bf6cc346cc74f6c013e0293e6dfd2e4aa66a92242fd395b6d91aaad5a07",
            "1c449d77ea00e44ecc75073890ac50d4f4210e8c9da45385a46d214a0fccc131db3f842f955e6e76ac311b3bf439dd51",
            "9bedd691785adf7540f3163ad1216cf2adb7d4bf40d93be3184aef51b651ca26c7ec44073f43ad689d269ea9ff02f8d2",
            "c8932fe6ced0292f97fb5f07ca276d6b43",
        ),
    },
    Vector {
        header: ":Skein-256:   256-bit hash, msgLen =  1976 bits. Tree: leaf=02, node=01, maxLevels=FF",
        state_bits: 256,
        output_bits: 256,
        message_bits: 1976,
        message: concat!(
            "000102010401060108010a010c010e01100112011401160118011a011c011e01200122012401260128012a012c012e01",
            "300132013401360138013a013c013e01400142014401460148014a014c014e01500152015401560158015a015c015e01",
            "600162016401660168016a016c016e01700172017401760178017a017c017e01800182018401860188018a018c018e01",
            "900192019401960198019a019c019e01a001a201a401a601a801aa01ac01ae01b001b201b401b601b801ba01bc01be01",
            "c001c201c401c601c801ca01cc01ce01d001d201d401d601d801da01dc01de01e001e201e401e601e801ea01ec01ee01",
            "f001f201f401f6",
        ),
        key: "",
        tree: Some((2, 1, 255)),
        result: "898bcbb8d2191b827155ccea3a60dfd0c51773bc2c3069e56244403d71fa807a",
    },
    Vector {
        header: ":Skein-512:   512-bit hash, msgLen =  4032 bits. Tree: leaf=01, node=02, maxLevels=03",
        state_bits: 512,
        output_bits: 512,
        message_bits: 4032,
        message: concat!(
            "000202020402060208020a020c020e02100212021402160218021a021c021e02200222022402260228022a022c022e02",
            "300232023402360238023a023c023e02400242024402460248024a024c024e02500252025402560258025a025c025e02",
            "600262026402660268026a026c026e02700272027402760278027a027c027e02800282028402860288028a028c028e02",
            "900292029402960298029a029c029e02a002a202a402a602a802aa02ac02ae02b002b202b402b602b802ba02bc02be02",
            "c002c202c402c602c802ca02cc02ce02d002d202d402d602d802da02dc02de02e002e202e402e602e802ea02ec02ee02",
            "f002f202f402f602f802fa02fc02fe02000302030403060308030a030c030e03100312031403160318031a031c031e03",
            "200322032403260328032a032c032e03300332033403360338033a033c033e03400342034403460348034a034c034e03",
            "500352035403560358035a035c035e03600362036403660368036a036c036e03700372037403760378037a037c037e03",
            "800382038403860388038a038c038e03900392039403960398039a039c039e03a003a203a403a603a803aa03ac03ae03",
            "b003b203b403b603b803ba03bc03be03c003c203c403c603c803ca03cc03ce03d003d203d403d603d803da03dc03de03",
            "e003e203e403e603e803ea03ec03ee03f003f203f403f603",
        ),
        key: "",
        tree: Some((1, 2, 3)),
        result: concat!(
            "c85cba3123180e3113b0413144159ea022da15b62edce13e56b6526b5f996ff2fb777946f09244bb78f1ccf8c8e8e59a",
            "d09429709ecd6de95dc6108b6932bde0",
        ),
    },
];
