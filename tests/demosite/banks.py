"""Word and phrase banks the text generator combines into sentences.

Kept apart from the generator so the vocabulary can grow without touching logic.
Chinese banks are space-separated phrases, English ones are "|"-separated, and
every Chinese character here must be encodable as GBK (one section is served in GBK).
"""

from __future__ import annotations


def _zh(text: str) -> tuple[str, ...]:
    return tuple(text.split())


def _en(text: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in text.split("|") if part.strip())


ZH_SURNAMES = _zh(
    "王 李 张 刘 陈 杨 黄 赵 吴 周 徐 孙 马 朱 胡 郭 何 高 林 罗 郑 梁 谢 宋 唐 许 韩 冯 邓 曹 "
    "彭 曾 肖 田 董 袁 潘 蒋 蔡 余 杜 叶 程 苏 魏 吕 丁 任 沈 姚 卢 姜 崔 钟 谭 陆 汪 范 金 石 "
    "廖 贾 夏 韦 方 白 邹 孟 熊 秦 邱 江 尹 薛 段 雷 侯 龙 史 陶 黎 贺 顾 毛 郝 龚 邵 万 钱 严 欧阳"
)
ZH_GIVEN = _zh(
    "伟 芳 娜 敏 静 丽 强 磊 军 洋 勇 艳 杰 娟 涛 明 超 秀英 霞 平 刚 华 玉兰 萍 红 鹏 林 斌 浩 "
    "宇 婷 欣 晨 思远 子涵 一鸣 佳怡 雨轩 志强 建国 海燕 晓东 文博 嘉欣 俊杰 梦瑶 天宇 雪梅 立新 "
    "春晖 国庆 晓峰 慧敏 振华 鑫 凯 琳 帆 颖"
)
ZH_NICK_HEADS = _zh(
    "江城 东湖 老 小 阿 快乐的 吃货 追风 夜猫子 路过的 退休 单身 沉默的 爱笑的 西街 南岸 "
    "骑行 钓鱼 咖啡 橘子 隔壁"
)
ZH_NICK_TAILS = _zh("小王 李哥 猫 少年 大叔 阿姨 码农 菜鸟 老张 姐姐 胖子 书生 布丁 兔子 船长 熊")

ZH_ROLES = _zh("局长 副局长 相关负责人 副主任 首席经济学家 研究员 处长 总工程师")
ZH_PERIODS = _zh("前三季度 1至10月 上半年 今年以来 10月份 第三季度")
ZH_WHEN = _zh("近日 日前 今年以来 本周 上周 记者近日获悉 截至目前 进入四季度以来 连日来")
ZH_PLACES = _zh(
    "江城市 东湖区 南岸区 西山县 高新区 滨江新区 省内 全市 全国多地 长江沿线 主城区 开发区"
)
ZH_RESULTS = _zh(
    "取得了积极进展 受到市民广泛关注 进一步提升了服务效率 为群众办事提供了便利 "
    "初步形成了可复制的经验 整体运行平稳有序 得到了社会各界的好评 有效缓解了供需矛盾"
)
ZH_VIEWS = _zh(
    "下一步将继续加大投入力度 这项工作关系到千家万户的切身利益 我们会把好事办好、实事办实 "
    "关键是要让老百姓真正得到实惠 还有不少难题需要一步一步解决 各部门要形成工作合力 "
    "只有坚持问题导向才能找到突破口 这是一项长期而艰巨的任务"
)
ZH_PROGRESS = _zh(
    "已完成前期调研 进入全面实施阶段 首批试点已经落地 相关方案正在征求意见 "
    "主体工程已基本完工 招标工作已经启动 运行效果好于预期"
)
ZH_FUTURE = _zh(
    "年底前将全面完成 明年上半年有望投入使用 将在更大范围推广 后续还将出台配套细则 "
    "三年内实现全覆盖 将分批次有序推进"
)
ZH_ANALYSIS = _zh(
    "短期内市场仍将保持震荡格局 政策效应将在未来几个月逐步显现 需求回暖的趋势较为明确 "
    "企业应当提前做好风险预案 行业整合将进一步加速 消费升级仍是长期主线 "
    "外部环境的不确定性依然存在"
)
ZH_CITIZEN = _zh(
    "现在办事比以前方便多了 希望这样的好政策能够长期坚持下去 家门口的变化大家都看得见 "
    "价格还是有点偏高 服务态度明显好了很多 排队的时间比原来短了一半"
)
ZH_BENEFITS = _zh(
    "降低了群众的办事成本 提高了资源利用效率 带动了周边产业发展 改善了居民的生活环境 "
    "增加了就业岗位 缩短了审批时间 增强了城市的吸引力"
)
ZH_ACTIONS = _zh("推进 启动 完善 加快 部署 优化 深化 落实 规范 升级")
ZH_QUESTIONS = _zh("效果究竟如何 该如何落地 能否持续下去 会带来哪些变化 还面临哪些挑战")
ZH_FILLERS = (
    "目前，相关工作正在有序推进中。",
    "记者在现场看到，工作人员正在忙碌地进行最后的调试。",
    "对此，有关部门表示将认真研究、积极回应。",
    "这一做法在全省尚属首次。",
    "活动现场气氛热烈，吸引了不少市民驻足观看。",
)

# Per-topic organisations, objects and indicators for the Chinese news sections.
ZH_TOPICS: dict[str, dict[str, tuple[str, ...]]] = {
    "china": {
        "org": _zh("市发展改革委 市教育局 市卫生健康委 市住房城乡建设局 市生态环境局 市人社局 "
                   "国务院有关部门 省交通运输厅"),
        "obj": _zh("老旧小区改造 城乡医保政策 义务教育资源均衡 农村公路建设 养老服务体系 "
                   "生态环境保护督察 稳就业专项行动 城市更新计划"),
        "metric": _zh("城镇新增就业人数 基本养老保险参保人数 空气质量优良天数 财政民生支出"),
    },
    "finance": {
        "org": _zh("国家统计局 市商务局 多家上市公司 江城银行 证券监管部门 市地方金融管理局 "
                   "行业协会"),
        "obj": _zh("消费券发放 小微企业融资 新能源汽车消费 房地产市场调控 跨境电商试点 "
                   "绿色信贷 外贸稳增长措施"),
        "metric": _zh("社会消费品零售总额 规模以上工业增加值 进出口总额 居民人均可支配收入 "
                      "固定资产投资"),
    },
    "tech": {
        "org": _zh("市科技局 多家互联网企业 江城大学研究团队 国产芯片厂商 通信运营商 "
                   "人工智能创新中心"),
        "obj": _zh("大模型应用 5G基站建设 智能网联汽车测试 数据中心集群 国产操作系统适配 "
                   "量子通信网络 工业互联网平台"),
        "metric": _zh("软件业务收入 高新技术企业数量 研发投入强度 5G用户数"),
    },
    "local": {
        "org": _zh("市交通管理部门 区政府 街道办事处 市气象台 市公交集团 社区居委会 "
                   "市文化旅游局"),
        "obj": _zh("地铁三号线延伸工程 背街小巷整治 便民菜市场改造 公交线路优化 "
                   "江滩公园提升工程 社区食堂建设 夜间经济街区"),
        "metric": _zh("公交日均客流 接待游客人次 新增停车泊位 社区食堂就餐人次"),
    },
}

ZH_FORUM_TOPICS: dict[str, tuple[str, ...]] = {
    "chat": _zh("小区停车难 孩子上学接送 周末去哪儿玩 邻居装修噪音 江边散步 年轻人结婚压力"),
    "food": _zh("热干面 小龙虾 火锅店 早餐摊 烧烤 私房菜 糖水铺 排骨藕汤"),
    "house": _zh("二手房 学区房 装修预算 物业费 租房 地暖安装 老房翻新"),
    "digital": _zh("手机换新 笔记本电脑 路由器 智能手表 家用投影仪 宽带套餐 显卡"),
    "jobs": _zh("面试经验 跳槽 考公 实习机会 程序员岗位 社保缴纳 年终奖"),
}
ZH_FORUM_ASK = _zh(
    "有没有靠谱的推荐 大家一般怎么选 到底值不值得 有什么需要注意的 哪家比较好 "
    "现在行情怎么样 有没有人有同样的经历"
)
ZH_FORUM_FEEL = _zh(
    "真的太方便了 感觉被坑了 体验还不错 性价比一般般 说实话有点失望 简直不要太爽 心里很纠结"
)
ZH_FORUM_ADVICE = _zh(
    "建议多跑几家对比一下 最好提前打电话问清楚 千万别图便宜 可以先在网上看看评价 "
    "周末人多最好错峰去 找熟人介绍会靠谱一些"
)
ZH_FORUM_SHORT = (
    "顶一下！", "楼主说得对。", "同问，蹲一个答案。", "学习了，谢谢分享！", "路过，帮顶。",
    "哈哈，太真实了！", "收藏了，以后用得上。", "支持楼主！",
)
ZH_FORUM_GREET = _zh("各位坛友好 大家好 请教一下 新人报到 问个问题 求助各位")
ZH_FORUM_DID = _zh("试了试 去体验了一下 研究了一下 找人打听了 折腾了好久")
ZH_FORUM_REASON = _zh(
    "不然很容易踩坑 毕竟不是小钱 这个真的看运气 口碑还是要多方面看 每个人情况都不一样"
)
ZH_FORUM_TAGS = _zh("求助 分享 讨论 吐槽 经验 推荐")
ZH_SIGNATURES = (
    "生活不止眼前的苟且。", "江城人，爱江城。", "签名什么的，随便写写。",
    "好好学习，天天向上。", "慢慢来，比较快。",
)

EN_FIRST = _en(
    "James|Mary|Robert|Patricia|John|Jennifer|Michael|Linda|David|Elizabeth|William|Barbara|"
    "Richard|Susan|Joseph|Jessica|Thomas|Sarah|Daniel|Karen|Matthew|Nancy|Anthony|Lisa|Mark|"
    "Emily|Paul|Hannah|Kevin|Laura|Oliver|Sophie|Lucas|Grace|Ethan|Chloe"
)
EN_LAST = _en(
    "Smith|Johnson|Williams|Brown|Jones|Garcia|Miller|Davis|Wilson|Anderson|Taylor|Thomas|"
    "Moore|Martin|Jackson|Thompson|White|Harris|Clark|Lewis|Walker|Hall|Young|King|Wright|"
    "Scott|Green|Baker|Adams|Nelson|Carter|Mitchell|Roberts|Turner|Phillips|Campbell"
)
EN_HANDLES = _en(
    "dev_ops_dan|wanderlust42|coffee_and_code|bookworm_jane|trailrunner|pixel_pete|"
    "quiet_reader|night_owl|grumpy_gardener|the_real_sam|mapsandmiles|tinkerer"
)

EN_ORGS = _en(
    "The United Nations|The European Commission|The World Bank|The International Monetary Fund|"
    "The World Health Organization|Japan's central bank|The African Union|"
    "Brazil's environment ministry|The Association of Southeast Asian Nations|"
    "Germany's economy ministry|India's election commission|The World Trade Organization"
)
EN_ACTIONS = _en(
    "expand|review|suspend|fund|accelerate|scale back|delay|tighten|overhaul|extend"
)
EN_OBJECTS = _en(
    "its climate finance programme|emergency food aid to the region|rules on cross-border data|"
    "support for small exporters|a regional vaccine initiative|interest rate guidance|"
    "the deep-sea mining moratorium|plans for a new rail corridor|subsidies for electric vehicles|"
    "a debt relief package for low-income countries|fishing quotas in the northern Pacific"
)
EN_CONTEXT = _en(
    "inflation eases across most major economies|talks on a trade agreement stall|"
    "record temperatures strain power grids|a drought threatens harvests|"
    "governments race to secure critical minerals|shipping costs climb again|"
    "voters prepare for a closely watched election|aid agencies warn of funding shortfalls"
)
EN_ROLES = _en(
    "a senior economist|a spokesperson|the chief negotiator|a policy analyst|the deputy minister|"
    "a researcher"
)
EN_SOURCES = _en(
    "official figures|a statement released on Monday|a report published this week|"
    "preliminary data|government estimates|a survey of 1,200 firms"
)
EN_METRICS = _en(
    "Consumer prices|Industrial output|Exports|Youth unemployment|Wheat prices|Remittances"
)
EN_QUOTES = _en(
    "We cannot afford to wait another year|This is a step in the right direction|"
    "The numbers speak for themselves|Nobody expected the response to be this fast|"
    "We will keep every option on the table|There is still a long way to go"
)
EN_ANALYSIS = _en(
    "the decision reflects growing pressure from member states|"
    "markets had largely priced in the change|the impact on households will be uneven|"
    "the timing is as much political as economic|smaller countries stand to gain the most|"
    "enforcement remains the biggest open question"
)
EN_PLACES = _en(
    "Brussels|Geneva|Nairobi|Jakarta|Buenos Aires|Tokyo|Ottawa|Cairo|Oslo|Singapore|Lima|Seoul"
)
EN_MONTHS = _en(
    "January|February|March|April|May|June|July|August|September|October|November|December"
)
EN_WEEKDAYS = _en("Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday")

EN_BLOG_TOPICS: dict[str, dict[str, tuple[str, ...]]] = {
    "travel": {
        "thing": _en("a night train to the coast|a week in the mountains|a tiny guesthouse|"
                     "the old harbour market|a ferry that was three hours late"),
        "tip": _en("pack half of what you think you need|book the first train of the day|"
                   "learn ten words of the local language|always carry some cash"),
    },
    "cooking": {
        "thing": _en("a sourdough starter|braised pork belly|a cast-iron pan|homemade dumplings|"
                     "a lemon tart that refused to set"),
        "tip": _en("salt the water more than you think|let the dough rest overnight|"
                   "taste as you go|buy the spices whole and grind them yourself"),
    },
    "code": {
        "thing": _en("a flaky integration test|a memory leak in a background worker|"
                     "a slow database query|an old Python 2 script|a race condition in the cache"),
        "tip": _en("write the failing test first|measure before you optimise|"
                   "read the error message twice|keep your functions small"),
    },
    "books": {
        "thing": _en("a thousand-page novel|a book club pick|an old travel diary|"
                     "a collection of short stories|a history of the printing press"),
        "tip": _en("read the last chapter first if you must|keep a notebook nearby|"
                   "give a book fifty pages before you quit|reread the books you loved"),
    },
    "garden": {
        "thing": _en("a tomato plant on the balcony|a compost heap|a row of sunflowers|"
                     "an apple tree that finally bloomed|slugs in the lettuce"),
        "tip": _en("water early in the morning|start small with herbs|"
                   "mulch everything you can|never trust a warm week in March"),
    },
}
EN_BLOG_WHEN = _en("weekend|month|spring|summer|Tuesday|winter|year")
EN_BLOG_FEEL = _en(
    "it was harder than it looked|it changed the way I plan everything|I was completely wrong|"
    "the results surprised me|it was worth every minute|I still laugh about it"
)
EN_BLOG_REACT = _en(
    "Great post!|Thanks for sharing this.|This made my day.|So true.|I had no idea.|"
    "Bookmarked for later."
)
