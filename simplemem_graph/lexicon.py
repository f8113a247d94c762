"""Closed word classes: the parts around a name, and the vocabulary of talk that names nothing.

Names: surnames, titles, organisation and place suffixes, legal forms.

Used by compression (`compress/names.py`: finding names) and consolidation (`consolidate/aliases.py`:
short forms, nicknames) alike, so the two stages agree on what a surname or a title is. These are
closed *grammatical* classes of a name (the parts around it), never names themselves: the names
come from structure (a surname + a title, a word + an organisation suffix), spaCy NER and jieba's
part-of-speech tags. Place gazetteers (lists of actual place names) live apart, in `gazetteer.py`,
and are only a fallback.

Phatic vocabulary (`EN_PHATIC_WORDS`, `ZH_PHATIC_WORDS`): general English and Chinese words of
greeting, thanks, acknowledgement, farewell, encouragement and bare reaction, the light verbs and
the generic nouns ("thing", "事情") that carry no topic of their own. `compress/informative.py`
drops a clause only when every content word is one of these and it names nothing else. They are
closed classes of everyday speech, written from general usage, not from any data set's phrasings.
"""

from __future__ import annotations

import re


def _words(text: str) -> list[str]:
    """Whitespace-separated words: long lists read better as text than as quoted items."""
    return text.split()


ZH_SURNAMES = frozenset(
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢"
    "姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤常温康施"
    "文牛樊葛邢安齐易乔伍庞颜倪庄聂章鲁岳翟殷詹申欧耿关兰焦俞左柳甘祝包宁尚符舒阮柯纪梅童凌毕季裴霍涂苗谷"
    "盛曲翁冉骆蓝路游辛靳管柴蒙鲍华喻祁蒲房滕屈饶解牟艾尤阳时穆农司卓古吉缪简车项连芦麦褚娄窦戚岑景党宫费卜冷晏"
    "席卫米柏宗瞿桂佟臧闵苟邬边卞姬师仇栾隋商刁沙荣巫寇桑郎甄丛仲虞敖巩佘池查麻苑迟邝"
)

ZH_COMPOUND_SURNAMES = tuple(_words("""欧阳 司马 上官 诸葛 东方 皇甫 令狐 慕容 尉迟 长孙"""))

# Longest first: 总经理 before 经理 before 总.
ZH_TITLES = tuple(
    _words("""董事长 总经理 副总 总监 经理 主任 主管 老师 教授 博士 医生 律师 部长 处长 局长 院长
    校长 厂长 科长 组长 队长 会计 秘书 助理 老板 师傅 先生 女士 小姐 总 董 工""")
)

# One-character short forms of a title, said after a surname when talking of the person (甘校 for
# 甘校长, 王局, 李处): a person only where surname + character is no word of its own (高校, 何处).
ZH_SHORT_TITLES = frozenset("校局处院")

# Words that look like surname + title but are ordinary words.
ZH_TITLE_FALSE_FRIENDS = frozenset(
    _words("""上工 下工 于总 人工 做工 停工 分工 加工 务工 化工 向总 复工 女工 完工 小于 小姐 小康
    小时 开工 怠工 总总 成总 手工 打工 技工 施工 时总 木工 民工 用工 电工 监工 石工 竣工
    童工 罢工 老于 老师 职工 赶工 车工""")
)

# Longest first, so 有限公司 wins over 公司.
ZH_ORG_SUFFIXES = tuple(
    _words("""有限公司 股份公司 研究院 研究所 事务所 工作室 基金会 委员会 电视台 公司 集团 科技 物流
    银行 大学 学院 医院 律所 中心 协会 航空 地产 证券 保险 传媒 电子 软件 网络 实业 贸易
    制造 汽车 食品 药业 化工 能源 资本 控股 股份 快递 商贸 咨询 置业 部 局
    窑业 瓷业 陶业 茶业 酒业 乳业 矿业 木业 视讯
    超市 工程行 商行 电器行 药局 诊所""")
)

# Legal forms that close a registered company name (which opens with its place: 深圳市…有限公司).
ZH_LEGAL_FORMS = frozenset(_words("""有限公司 股份公司 研究院 研究所 事务所 集团"""))

# Industry words inside registered company names, dropped to find the trade name (锐拓 of
# 深圳市锐拓精密五金有限公司).
ZH_INDUSTRY_WORDS = frozenset(
    _words("""塑料 电子 电器 机械 设备 材料 包装 纺织 服装 家具 建材 化工 医药 生物
    信息 技术 网络 环保 新能源 光电 模具 钢铁 金属 玻璃 陶瓷 印刷 供应链 国际 实业 贸易 商贸
    建设 建筑 工程 装饰 装修 设计 广告 物业 餐饮 家居 运输 货运 劳务 安装 园林 绿化 文化 教育
    医疗 农业 纸业 五金 水泥 石材 涂料 家电 服饰 鞋业 酒店 旅游 租赁
    茶饮 烘焙 冷链 速冻 冷冻 会展 展览 印务 财税 视讯 数码 通讯 影视 机电 制冷 玩具
    仓储 云仓 厨具 电商""")
)

# Nouns for the role an organisation plays (a customer, a supplier): they introduce a name
# ("新客户临安润泓流体有限公司") or stand for one ("那个做X的客户"), they never name one themselves.
ZH_ORG_ROLE_NOUNS = frozenset(
    _words("""客户 供应商 厂家 厂商 商家 工厂 厂 公司 合作方 对方 伙伴 合作伙伴 子公司 母公司 同行 对手
    竞争对手 承运商 物流商 代理商 经销商 服务商""")
)

# Job roles written right before a person's name ("采购胡勇之", "司机老李", "对接人是财务王芳"): the word
# after one names a person, even when jieba reads it as an ordinary word (海河, 建国).
ZH_JOB_ROLES = tuple(
    _words("""采购 销售 财务 会计 出纳 司机 工程师 技术员 跟单 业务员 业务 质检 仓管 库管 行政 人事 前台
    客服 设计师 助理 秘书 同事 对接人 联系人 负责人 经办人 专员 主管 经理 总监""")
)

# A firm's departments: after its trade name they name a part of it (声衍技术对接人, 恒筑财务), no
# second firm.
ZH_DEPARTMENT_WORDS = frozenset((*ZH_JOB_ROLES, *_words("技术 研发 市场 品控 工程部 技术部 财务部 采购部")))

# Ordinary words ending in an organisation suffix.
ZH_ORG_FALSE_FRIENDS = frozenset(
    _words("""东部 中心 中部 住所 俱乐部 全部 内部 出局 北部 南部 厕所 场所 外部 大局 头部 局部
    市中心 布局 干部 底部 当局 本部 格局 细部 结局 背部 胸部 脸部 腹部 西部 诊所 部分
    重心 面部 顶部 饭局 高科技 黑科技""")
)

# A place followed by one of these is one place: 苏州工厂, 虹桥机场.
ZH_FACILITY_SUFFIXES = tuple(
    _words("""会议室 办公室 工厂 机场 火车站 高铁站 车站 码头 仓库 大厦 酒店 园区 门店 分店 分公司
    厂区 展厅 大厅 前台 港 街道 社区 小区""")
)

# The head of a named place of work a contract is for (枫渡花园, 锦城大厦, 东湖园区): the client's
# site, not a party of its own.
ZH_SITE_SUFFIXES = tuple(_words("""花园 小区 家园 公寓 大厦 广场 园区 工地 校区 院区 楼盘 新城 苑"""))
# Cantonese grammar characters (咗 done, 哋 plural, 嘅 of, 啲 some, 嚟 come, 唔 not, 佢 he/she, 喺 at,
# 冇 have not, 嘢 thing, 嗰 that): written in clauses, never in a name.
ZH_CANTONESE_GRAMMAR = frozenset("咗哋嘅啲嚟唔佢喺冇嘢嗰")

ZH_PLACE_SUFFIXES = tuple(_words("""省 市 县 区 镇 村 路 街 机场 站 港 湾 岛"""))

# A capitalised name ending in one of these is an organisation: Helix Labs, Orbit Logistics.
# Speaker labels that name a role, not anyone ("user: …", "assistant: …").
GENERIC_SPEAKERS = frozenset({"user", "assistant", "system", "agent", "bot", "ai"})

# A firm named only to say another is not it: the role of its mention ("contrast"), and the words
# that say so ("跟JL不是一家", "完全两家 别搞混", "与澜湾无关", "nothing to do with", "Not connected to
# X", "a totally separate firm").
CONTRAST_ROLE = "contrast"
CONTRAST_MARKER = re.compile(
    # (traditional characters too: "跟TC完全沒關係")
    r"不是一家|不是同一家|完全[两兩]家|[两兩]家公司|搞混|弄混|混淆|差一[个個]字|"
    # "与澜湾无关" (not "跟我们没关系了": a firm, not us)
    r"(?:[与與]|跟|和|同)(?!我|咱)[\u4e00-\u9fffA-Za-z]{1,12}?"
    r"(?:[无無][关關]|[没沒]有?[关關][系係]|不相干|八竿子打不着|八竿子打不著|不沾边|不沾邊|扯不上)|"
    r"\b(?:nothing to do (?:with|w/?)(?=\s)|not to be confused with|"
    r"no relation to|not related to|unrelated to|not connected (?:to|with)|no connection (?:to|with)|"
    r"not affiliated with|"
    r"not the same (?:firm|company|business|lot|people|one)|"
    r"(?:separate|different) (?:firm|company|business|lot|outfit|account|one|people|client|customer|"
    r"prospect|group|brand|shop|store))\b"
    # "Oakhurst ≠ Oakhaven"
    r"|≠",
    re.IGNORECASE,
)


# Nouns for a firm: "signed direct with a telematics company, Orbitrack", "a firm called Tallyclock"
# introduce the name after them as an organisation's.
EN_FIRM_NOUNS = (
    "company|firm|agency|outfit|business|provider|contractor|consultancy|"
    "client|customer|supplier|vendor|importer|exporter|distributor|manufacturer"
)
_FIRM_MODIFIER = r"(?!(?:from|of|at|with|for|in|on|to|the|their|our|his|her)\b)[\w-]+\s+"
# "a/an <up to 3 modifiers> <firm noun>, " or " called ": where the firm's name starts.
EN_FIRM_INTRODUCED = re.compile(
    rf"\b(?:a|an)\s+(?:{_FIRM_MODIFIER}){{0,3}}?(?:{EN_FIRM_NOUNS})(?:\s*[,:—–-]\s*|\s+(?:called|named)\s+)(?=[A-Z])",
    re.IGNORECASE,
)


EN_ORG_SUFFIXES = frozenset(
    _words("""Agency Airlines Airways Associates Bakery Bank Cafe Capital Clinic Co Co. College Company
    Construction Consulting Corp Corp. Corporation Electronics Energy Enterprises Foods Foundation GmbH
    Group Holdings Hospital Hotel Inc Inc. Industries Institute Insurance LLC LLP Lab Labs Logistics Ltd
    Ltd. Manufacturing Media Motors Networks Partners Pharma Pharmaceuticals Press Publishing Realty
    Records Restaurant Services Software Solutions Studio Studios Supplies Systems Tech Technologies
    Technology Trading University Ventures
    Apparel Chemicals Components Electric Engineering Freight Machinery Materials Metals
    Packaging Parts Plastics Shipping Steel Textiles Tools
    Centre Center Removals Properties Developers Developments Contracting Contractors
    Lodge Inn Brewery Trust Salon Bistro Dental Tavern Pub Limited PLC plc Incorporated
    Academy Nursery Kindergarten Preschool Montessori Coffee Café Roasters Eatery Diner Pizzeria
    Bakehouse Coffeehouse Teahouse Alehouse Steakhouse Roadhouse Guesthouse Chophouse""")
)

# The head nouns of English posts ("facility manager", "Finance & Admin Supervisor"): a capitalised
# run that ends in one on a signature's line is a job title, not a firm or a person.
EN_POSTS = (
    "manager|director|head|officer|coordinator|supervisor|engineer|accountant|administrator|executive|"
    "controller|superintendent|in-charge|incharge"
)

# Nationality and group adjectives spaCy tags NORP; they are not names of anything to remember.
EN_NATIONALITIES = frozenset(
    _words("""African American Asian Australian Brazilian British Buddhist Canadian Catholic Chinese Christian
    Danish Democrat Democrats Dutch English European Finnish French German Greek Hindu Hispanic Indian
    Irish Italian Japanese Jewish Korean Latino Mexican Muslim Norwegian Polish Republican Republicans
    Russian Scottish Spanish Swedish Swiss Turkish Welsh""")
)

# Acronyms spaCy tags as organisations or places that name documents, roles, taxes, trades and
# payment rails (GST, AV, RTGS), not parties.
EN_COMMON_ACRONYMS = frozenset(
    _words("""AI AM ASAP AV CEO CFO COO CTO DIY EOD ETA FYI GDP GST HR HST ID IT KPI LGBT LGBTQ MOU NDA OK PM
    PO PR QA RFP RFQ ROI SOW TV VAT AGM EGM AP AR ACH PDF CNY
    USD EUR GBP RMB HKD AUD CAD NZD SGD JPY INR CHF SMS API UI UX OTP UAT FOB
    SLA SOP SKU CRM ERP KYC RCA CX UTC GMT PIC
    CCTV NVR DVR VLAN PoE LAN WAN UPS BMS HVAC LED GPS QR POS
    RTGS EFT NEFT IMPS UPI BACS CHAPS SEPA GIRO FPS IBAN LPO""")
)

# The apps people talk through ("Freja on WhatsApp this morning", "very quick on Teams"): a channel,
# never a party to the work, an employer or a supplier. Only the apps' own spellings, case counting
# (a "signal" or a "line" is no app).
CHAT_APPS = frozenset(
    _words("""WhatsApp Whatsapp Zalo Telegram Viber Slack Zoom Skype Messenger iMessage FaceTime Discord
    WeChat Wechat KakaoTalk Kakao Gmail Outlook Webex""")
) | {"Microsoft Teams", "Google Meet", "Google Chat", "LINE"}

# Posts written as acronyms ("the Kingsway GM", "FM at their Mirdif mall"): a run NER reads as an
# organisation that ends in one names a post, not a firm.
EN_ROLE_ACRONYMS = frozenset(_words("""GM FM MD VP CEO CFO COO CTO CIO CMO HOD"""))

# The last word of a street's or a shopping site's name ("Quarry Rd", "Mill Lane", "Tanglewood
# Crossing", "Kuykendahl Square"): the name is a place, not a person's two names.
EN_STREET_WORDS = frozenset(
    _words("""Rd Road St St. Street Ave Avenue Lane Ln Blvd Boulevard Hwy Highway Drive
    Square Plaza Crossing Commons Mall Arcade Esplanade""")
)

# Legal forms written after a firm's name outside the English-speaking world ("Ribeira Negra Filmes,
# Lda.", "Brenner Logistik GmbH", "Sociedade X, S.A."), as registries write them; case counts.
INTERNATIONAL_LEGAL_FORMS = (
    *("Lda", "Lda.", "Ltda", "Ltda.", "S.A.", "SA", "S.L.", "SL", "SARL", "S.A.R.L.", "SAS", "S.A.S."),
    *("S.r.l.", "Srl", "SRL", "S.p.A.", "SpA", "AG", "KG", "GmbH", "N.V.", "NV", "Oy", "Oyj", "AB"),
    *("A/S", "AS", "ApS", "K.K.", "Tbk", "JSC", "OOO", "d.o.o.", "s.r.o.", "Sp. z o.o."),
    # the Gulf's (L.L.C. written with dots, free-zone forms) and Mexico's
    *("L.L.C.", "W.L.L.", "WLL", "FZE", "FZCO", "FZ-LLC", "FZC", "S.A. de C.V.", "S. de R.L. de C.V."),
    # Malaysia's public companies (Berhad, Bhd) and Quebec's French forms, written in lower case
    *("Berhad", "Bhd", "inc", "inc.", "ltée", "Ltée", "S.E.N.C.", "s.e.n.c."),
)


# Legal forms written before a firm's name (Indonesia's PT and CV: "PT Seduh Rasa Nusantara", "CV
# Cahaya Neon Abadi"): the capitalised name after one is a firm, whatever NER typed it.
LEGAL_FORMS_FIRST = ("PT", "PT.", "P.T.", "CV", "CV.")
LEGAL_FORMS_FIRST_ALT = "|".join(re.escape(form) for form in LEGAL_FORMS_FIRST)  # for regexes


# Words for a kind of firm that open its name where the language puts the kind first (French,
# Spanish, Portuguese, Italian, Malay, Indonesian: "Gestion Immobilière Desrochers-Bélanger inc.",
# "Bank Seriwangi Berhad", "Importadora Biomédica Tepeyac"): such a firm goes by the words after
# them, as an English one goes by the words before its kind ("Kingsway Fasteners" -> Kingsway).
LATIN_KIND_FIRST_WORDS = frozenset(
    _words("""Gestion Groupe Société Compagnie Clinique Cabinet Atelier Agence Banque Boulangerie
    Pharmacie Garage Immobilière Immobilier Entreprises Construction Constructions Transport Transports
    Remorquage Paysagement Déneigement Plomberie Toitures Traiteur
    Grupo Banco Clínica Agencia Agência Empresa Empresas Inmobiliaria Imobiliária Constructora
    Construtora Transportes Distribuidora Importadora Exportadora Comercial Comercializadora Farmacia
    Farmácia Panadería Padaria Taller Oficina Restaurante Laboratorio Laboratório Consultora
    Biomédica Médica Industrias Indústrias
    Gruppo Officina Società Azienda
    Bank Syarikat Kedai Klinik Tadika Pusat Perusahaan Restoran Kilang Perniagaan Koperasi
    Toko Apotek Rumah Sakit""")
)


# English titles before a surname ("Ms. Rivera", "Dr Okafor"): title + surname names one person.
EN_TITLES = ("Mr.", "Mrs.", "Ms.", "Miss", "Dr.", "Prof.", "Mr", "Mrs", "Ms", "Dr", "Prof")


# Kinship words used as honorifics before a given name or nickname ("Auntie Mei", Filipino "Tita
# Baby", "Kuya Jun", Indonesian and Malay "Mbak Yuli", "Bang Jul", "Pak Harun", "Cik Aina"): the
# name after one is a person's, whatever NER typed it.
EN_KIN_HONORIFICS = frozenset(
    _words("""Auntie Aunty Uncle Tita Tito Ate Kuya Lola Lolo Manang Manong
    Pak Bu Ibu Bapak Mbak Mas Bang Abang Kak Kakak Cik Encik Makcik Pakcik""")
)

# Weekdays and months of the other languages stories mix into English (Spanish, French, Portuguese,
# Italian, Indonesian and Malay, Tagalog), capitalised as a sentence or a note writes them: nobody's
# name and no firm ("diambil Jumat", "pelunasan Agustus"). Those that are also given names or firms
# are left out (Domingo, Julio, Abril, Mei, Jun, Mac, Mayo, Ahad, Mars).
OTHER_CALENDAR_WORDS = frozenset(
    _words("""Lunes Martes Miércoles Jueves Viernes Sábado Enero Febrero Marzo Junio Agosto Septiembre
    Setiembre Octubre Noviembre Diciembre
    Lundi Mardi Mercredi Jeudi Vendredi Samedi Dimanche Janvier Février Avril Juin Juillet Août Septembre
    Octobre Novembre Décembre
    Segunda-feira Terça-feira Quarta-feira Quinta-feira Sexta-feira Janeiro Fevereiro Março Maio Junho
    Julho Setembro Outubro Novembro Dezembro
    Lunedì Martedì Mercoledì Giovedì Venerdì Sabato Domenica Gennaio Febbraio Aprile Maggio Giugno
    Luglio Settembre Ottobre Dicembre
    Senin Selasa Rabu Kamis Jumat Jumaat Sabtu Minggu Isnin Khamis Januari Februari Maret Juli Julai
    Agustus Ogos Oktober Desember Disember
    Miyerkules Huwebes Biyernes Sabado Linggo Pebrero Marso Hunyo Hulyo Setyembre Oktubre Nobyembre
    Disyembre""")
)

# Lower-case words that join the parts of one name ("Bank of Ireland", "Ludwig van Beethoven",
# "Society for the Blind"); any other lower-case word inside a run NER read as a name ends it
# ("Tita Baby yung Feb", "TindaTech sa SBC", "Concepcion at Parang": Tagalog joined across it).
NAME_JOINERS = frozenset(
    _words("""of and for the de da do dos das del della di du des la le van von der den y e et und bin binti
    al el upon on""")
)


# Discourse markers of chat that open a message and are never part of a name ("Btw Splash Point
# called", "Fyi Acme Ltd paid"): spaCy joins them to the name after them.
EN_CHAT_MARKERS = frozenset(_words("""btw fyi ps pls plz tbh imo imho fwiw ngl iirc afaik anyway also"""))


# Lemmas (lower case) that say nothing about the world on their own: interjections and formulas,
# thanks and apology, affect and stance verbs, light verbs, talk about the talk itself, the
# vocabulary of encouragement, and generic nouns.
EN_PHATIC_WORDS = frozenset(
    _words("""hi hello hey hiya howdy yo bye goodbye cya later cheers thanks thank thx ty welcome sorry
    apology congrats congratulation congratulations wow whoa omg lol lmao haha hahaha hehe yay aw aww
    ugh oops yep yeah yea yup nope ok okay alright sure indeed absolutely totally definitely exactly
    right true same agreed
    cool nice awesome great amazing good glad happy sad proud excited lucky
    be have do get got make go come let take give keep put say tell talk chat speak ask answer hear
    listen see look sound seem feel think know guess bet suppose believe mean agree understand realize
    wonder imagine expect remember love like hate enjoy miss care mind wish hope want wait appreciate
    welcome congratulate excuse apologize forgive help support cheer root encourage motivate inspire
    push continue stay quit stop try matter deserve happen rest share reach catch hang rock post chase
    pursue strive hold hard forward
    thing stuff something anything everything nothing lot bit way deal kind sort luck pleasure problem
    worry word idea advice suggestion tip help support encouragement kindness friendship company time
    chat talk conversation news update progress experience memory life future day night morning
    evening afternoon week weekend dream goal success effort best spirit attitude potential journey
    obstacle challenge setback struggle hardship joy fun happiness love hope pride excitement feeling
    emotion mood vibe one""")
)

# Verbs of the set negative phrases that react rather than report ("I can't wait", "I don't know",
# "I couldn't agree more", "I can't thank you enough"): a first-person negation of any other verb is
# a fact about the speaker ("I'm not giving up", "I never drink coffee").
EN_FORMULA_NEGATED_VERBS = frozenset(
    _words("""wait know believe think mind thank imagine agree understand mean complain blame care help
    say tell express describe stop see guess doubt wonder lie deny argue ask""")
)

# Verbs of taste: what the speaker loves or hates is a fact about them ("I hate cilantro").
EN_PREFERENCE_VERBS = frozenset(_words("""love like hate enjoy prefer adore dislike detest"""))

# Words of thanks and apology: what follows them ("for your patience", "for having my back") is
# what the listener did or is, said back to them.
EN_THANKS_WORDS = frozenset(_words("""thank thanks thx ty sorry apology apologize appreciate grateful"""))

# Verbs of a wish for the listener ("Hope you slept well", "Wish you the best").
EN_WISH_VERBS = frozenset(_words("""hope wish pray"""))

# Address terms: a vocative when nothing (no determiner, no possessor) ties them to anyone ("Cheers
# mate", "谢谢，朋友"); a mention otherwise ("my friend", "我朋友").
EN_ADDRESS_TERMS = frozenset(
    _words("""friend buddy mate pal dude man bro sis dear honey sweetie guys folks""")
)
ZH_ADDRESS_TERMS = frozenset(_words("""朋友 亲 亲爱的 宝贝 兄弟 姐妹 老铁 伙计 大家"""))

# Adjectives of the formulaic answer ("I'm good", "I'm fine"): the speaker's state only in form.
EN_ACK_ADJECTIVES = frozenset(_words("""fine ok okay good great well alright sure sorry cool awesome"""))

# Chinese words (jieba's segmentation) that say nothing about the world on their own.
ZH_PHATIC_WORDS = frozenset(
    _words("""你好 您好 早上好 晚上好 下午好 早安 午安 晚安 再见 拜拜 回见 告辞 谢谢 感谢 多谢 谢啦 感激
    不客气 客气 没事 没关系 没问题 好的 好吧 好嘞 好滴 收到 明白 知道 了解 懂 是的 当然 可以 嗯嗯 哈哈
    哈哈哈 嘿嘿 呵呵 哇 天哪 真的 厉害 佩服 棒 不错 漂亮 可爱 有趣 好玩 开心 高兴 快乐 幸福 难过 伤心
    遗憾 抱歉 对不起 辛苦 加油 恭喜 祝贺 祝 好梦 笑死 期待 希望 喜欢 欣赏 聊天 聊 说 讲 谈 告诉 分享 问
    回答 觉得 认为 看来 听起来 看起来 感觉 想 想到 尝试 试试 试试看 考虑 认真 遵照 遵循 听从 采纳 接受
    照做 继续 坚持 努力 放弃 休息 陪 陪伴 帮 帮助 帮忙 支持 鼓励 关心 理解 指导 安慰 相信 打扰 找 抱抱
    应该 实用 有用 充实 建议 意见 意思 方法 办法 主意 想法 话 时间 事情 东西 情况 进展 变化 消息 感受 行动
    见 付诸行动 一下 起来 出来 下来 上来 过来 回来 下去 上去 出去 回去 回头 改天 待会 待会儿 一会儿 稍后""")
)

# Degree words before the speaker's own state ("我很难过", "我今天好累", "我有些郁闷"), and the verbs that
# report a feeling ("我感到有些无聊").
ZH_DEGREE_WORDS = frozenset(_words("""很 非常 有些 有点 特别 十分 挺 比较 最 好 太 超 特 蛮 相当 越来越"""))
ZH_FEELING_VERBS = frozenset(_words("""感到 觉得 感觉 变得"""))
# Adverbs that lean a phatic word into another ("再聊", "多谢", "又来").
ZH_LEANING_ADVERBS = frozenset("再又也还都就多")
# Modal and light-verb characters: a word made only of these does nothing on its own ("得去", "要来").
ZH_LIGHT_CHARS = frozenset("去来得要会能想该让给把被在有是")
# Modal particles and interjections (a closed class of the grammar): a word made only of these is a
# sound, not a word ("哦哦哦", "哈哈哈", "嗯嗯"), and one before a pause marks it ("好啦，小琳").
ZH_INTERJECTION_CHARS = frozenset("啊呀哦吧呢嘛啦哈噢喔嗯哇嘿呵嘻唉诶欸耶咯哟呗嘞哎")

# Day words of the moment of speaking: a farewell's "明天见" or "see you tomorrow" dates no event.
DEICTIC_DAY_WORDS = frozenset(
    _words("""today tonight tomorrow now 今天 今日 明天 明日 今晚 明晚 现在 下次""")
)
