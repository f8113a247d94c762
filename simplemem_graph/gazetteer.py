"""Place gazetteers: a documented *fallback* for places the structural rules cannot see.

Places are found first by structure (在/去/到X + a facility or an activity, X + 省/市/县/区, spaCy's
GPE / LOC, jieba's `ns` tag). These lists only catch the well-known places that come with no such
cue ("Rotterdam" alone, which spaCy may type as a person). They are major world places, not the
places of any dev story, and no rule depends on a place being listed here.
"""

from __future__ import annotations

from simplemem_graph.lexicon import _words

# Major Chinese cities and provinces, and countries as written in Chinese (no districts: a district
# is found by structure, X区, or by jieba's `ns` tag).
ZH_PLACES = frozenset(
    _words("""三亚 上海 东京 东莞 中国 中山 义乌 乌鲁木齐 云南 亚洲 伦敦 佛山 俄罗斯 兰州 内蒙古
    加拿大 北京 南京 南宁 南昌 南通 印度 厦门 台北 台州 台湾 合肥 吉林 呼和浩特
    哈尔滨 嘉兴 四川 墨西哥 大连 天津 太原 宁夏 宁波 安徽 山东 山西 巴西 巴黎 常州
    广东 广州 广西 徐州 德国 惠州 意大利 成都 扬州 拉萨 新加坡 新疆 无锡 日本 昆山 昆明
    杭州 欧洲 武汉 江苏 江西 沈阳 河北 河南 泉州 法国 泰国 济南 浙江 海南 海口 深圳
    温州 湖北 湖南 潍坊 澳大利亚 澳门 烟台 珠海 瑞典 瑞士 甘肃 石家庄 硅谷 福州 福建
    纽约 绍兴 美国 苏州 英国 荷兰 西宁 西安 西班牙 西藏 贵州 贵阳 越南 辽宁 郑州
    重庆 金华 银川 长春 长沙 陕西 青岛 青海 非洲 韩国 首尔 香港 马来西亚 黑龙江
    高雄 台中 台南 新北 桃园 新竹 基隆 嘉义 彰化 屏东 宜兰 花莲 台东""")
)

# Major world places (spaCy often types them as people).
_EN_SINGLE_WORD_PLACES = frozenset(
    _words("""Africa Alaska Amsterdam Argentina Arizona Asia Athens Atlanta Auckland Austin Australia Austria
    Baltimore Bangalore Bangkok Barcelona Beijing Belgium Berlin Boston Brazil Brisbane Britain Brooklyn
    Brussels Budapest Cairo California Canada Chengdu Chicago Chile China Colombia Colorado Copenhagen
    Dallas Delhi Denmark Denver Detroit Dubai Dublin Edinburgh Egypt England Europe Finland Florida
    France Frankfurt Geneva Georgia Germany Greece Guangzhou Hamburg Hangzhou Hanoi Hawaii Helsinki Hong
    Houston Illinois India Indonesia Ireland Istanbul Italy Jakarta Japan Johannesburg Kenya Kong Korea
    Lagos Lisbon London Madrid Maine Malaysia Manchester Manhattan Manila Massachusetts Melbourne Mexico
    Miami Michigan Milan Montana Montreal Moscow Mumbai Munich Nairobi Nashville Netherlands Nevada
    Nigeria Norway Oakland Ohio Oregon Orlando Osaka Oslo Ottawa Paris Perth Peru Philadelphia
    Philippines Phoenix Pittsburgh Poland Portland Portugal Prague Qingdao Queens Rome Rotterdam Russia
    Sacramento Scotland Seattle Seoul Shanghai Shenzhen Singapore Spain Stockholm Suzhou Sweden
    Switzerland Sydney Taipei Tampa Texas Thailand Tokyo Toronto Turkey UK USA Ukraine Utah Vancouver
    Vegas Vienna Vietnam Virginia Wales Warsaw Washington Zealand Zurich""")
)

EN_PLACES = _EN_SINGLE_WORD_PLACES | {
    "Buenos Aires",
    "Cape Town",
    "Hong Kong",
    "Kuala Lumpur",
    "Las Vegas",
    "Los Angeles",
    "Mexico City",
    "New Jersey",
    "New Orleans",
    "New York",
    "New Zealand",
    "North Carolina",
    "Rio de Janeiro",
    "Salt Lake City",
    "San Diego",
    "San Francisco",
    "San Jose",
    "South Carolina",
    "South Korea",
    "Tel Aviv",
    "United Kingdom",
    "United States",
}
