"""The words of the order families (`core/promotion/order_rules.py`), one language each.

Pure data. Written as people write them (accents, apostrophes, capitals): the rules read each
phrase through the same skeleton as the notes. Phrases are separated by `|`.
"""

from __future__ import annotations

from core.promotion.order_rules import Language

ENGLISH = Language(
    verbs="ignore|disregard|forget|disobey|discard|dismiss|abandon|override|overrule|bypass|"
    "circumvent|neglect|scrap|ditch|unlearn|set aside|put aside|lay aside|cast aside|"
    "push aside|brush aside|toss out|toss aside|toss away|throw out|throw away|"
    "throw aside|pay no attention to|pay no heed to|pay no mind to|take no notice of|"
    "do not follow|don't follow|dont follow|never follow|do not obey|don't obey|"
    "dont obey|never obey|do not heed|don't heed|do not listen to|don't listen to|"
    "do not comply with|don't comply with|do not adhere to|don't adhere to|"
    "do not abide by|don't abide by|stop following|stop obeying|stop heeding|"
    "stop listening to|stop complying with|quit following|cease following|"
    "cease obeying|no longer follow|no longer obey|no longer heed|no longer comply with|"
    "no longer abide by|never mind|nevermind|get rid of|let go of|free yourself from|"
    "free yourself of|break free from|break free of|rid yourself of|move past|look past",
    weak_verbs="drop|skip|clear|erase|wipe|purge|delete|remove|cancel|revoke|rescind|nullify|"
    "void|invalidate|suspend|lift|replace|reset|flush|scratch|trash|nuke",
    objects="instructions|instruction|guidance|directives|directive|programming|conditioning|"
    "guardrails|persona|system prompt|system prompts|system message|system messages|"
    "developer message|developer messages|safety guidelines|content policy|"
    "content policies|safety policy|safety policies|safety rules|safety filters|"
    "training",
    weak_objects="rules|rule|context|constraints|restrictions|policies|policy|limitations|"
    "limits|boundaries|principles|ethics|morals|safeguards|guidelines|prompt|"
    "prompts|conversation|role|identity",
    artefacts="file|files|section|sections|page|pages|doc|docs|document|folder|directory|"
    "link|links|table|column|field|branch|commit|heading|template|md|txt|repo|"
    "wiki",
    any_before="the|these|those|all|any|every|each|of|and|or|my|our|your|such|given|current|"
    "other|whole|entire|complete|full|one|ones|set of|list of|kind of|kinds of",
    agent_before="all|any|every|whatever",
    own_before="previous|prior|earlier|preceding|above|aforementioned|foregoing|former|"
    "original|initial|your|yours|ur|yr|system|developer|operator|safety|built-in|"
    "hidden",
    own_after="above|so far|until now|up to now|to date|you were given|you've been given|"
    "you have been given|you received|you have received|you got|you have|you follow|"
    "you were told|you've been told|you have been told|given to you|given earlier|"
    "given before|given previously|i gave you|in your system prompt|"
    "from your system prompt|from the system|from your developers|from the developer|"
    "from the operator|from openai|from anthropic|you were trained on|"
    "you are following|that came before|that came earlier|before this|"
    "before this note|preceding this|stated above|given above|listed above|"
    "written above|mentioned above|from before",
    void="void|null|invalid|invalidated|nullified|cancelled|canceled|revoked|rescinded|lifted|"
    "suspended|superseded|overridden|overruled|withdrawn|moot|ignored|disregarded|"
    "forgotten|set aside|discarded|no longer apply|no longer applies|no longer hold|"
    "no longer holds|no longer valid|no longer in effect|no longer in force|"
    "no longer binding|no longer matter|no longer matters|no longer count|"
    "no longer stand|no longer bind you|no longer active|don't apply|do not apply|"
    "doesn't apply|does not apply|don't matter|do not matter|don't count|do not count|"
    "not binding|cease to apply|ceased to apply|have expired|are expired",
    time="from now on|from here on|from here on out|from here onwards|from this point on|"
    "from this point onward|from this point onwards|from this point forward|"
    "from this moment on|from this moment onward|from this moment forward|"
    "from this day on|from this day forward|from this message on|from today on|"
    "from today onwards|going forward|moving forward|henceforth|hence forth|hereafter|"
    "thenceforth|starting now|starting today|starting immediately|starting from now|"
    "as of now|as of today|as of this message|in future|in the future|"
    "in all future responses|in all future replies|in all future answers|"
    "in all future conversations|in all future sessions|for all future responses|"
    "for all future replies|for all future answers|for all future conversations|"
    "for all future sessions|for all future messages|for all future requests|"
    "for any future request|for any future requests|for every future request|"
    "for the rest of this conversation|for the rest of the conversation|"
    "for the rest of this session|for the rest of the session|"
    "for the rest of this chat|until further notice|until told otherwise|"
    "until i say otherwise|effective immediately|effective now|permanently|forevermore|"
    "from the next message on|from the next reply on|from the next response on",
    addressees="you|you'll|you're|youll|youre|u|yourself|ye",
    you_modal="you will|you shall|you must|you should|you are to|you're to|you'll|youll|"
    "you need to|you have to|you are going to|you're going to|you can|you may|"
    "you won't|you will not|you must not|you shall not|you cannot|you can't|"
    "you are|you're",
    fillers="please|kindly|just|simply|now|then|also|completely|entirely|totally|fully|"
    "immediately|absolutely|really|about|right|and|so|ok|okay|again|quietly|silently|"
    "instead|therefore|hereby|remember|everything|that|i want|i need|i would like|"
    "i'd like",
    third="the assistant|the agent|the ai|the model|the bot|the llm|the chatbot|"
    "this assistant|this agent|this ai|this model|this bot|claude|chatgpt|gpt|copilot|"
    "gemini|your responses|your replies|your answers|your output|your outputs|"
    "your behavior|your behaviour|your role|your job|your task|your goal|your purpose|"
    "your persona|your identity|your name|your priority|your only task|"
    "your only goal|your only job",
    modals="will|shall|must|should|is to|are to|needs to|need to|has to|have to|may|can|"
    "cannot|can't|won't|is|are|'s|always|never|only|must not|shall not|obeys|follows|"
    "answers|replies|responds|acts|behaves|speaks|writes|uses|ignores|does|sends|works",
    roles="you now are|you now be|you now become|you now act as|you now serve|"
    "you now obey|you now answer to|you now follow|you're now|you are now|you r now|"
    "youre now|you are henceforth|you will now be|you'll now be|you shall now be|"
    "you will become|you shall become|you will act as|you shall act as|you'll act as|"
    "you will play the role|you will play the part|you will roleplay|you will role-play|"
    "you will impersonate|you will pretend|you have become|you've become|"
    "you have now become|you are no longer an ai|you are no longer an assistant|"
    "you are no longer a language model|you are no longer an llm|"
    "you are no longer a chatbot|you are no longer claude|you are no longer chatgpt|"
    "you are no longer bound|you are no longer constrained|you are no longer governed|"
    "you are no longer required to follow|you are no longer required to obey|"
    "you're no longer an ai|you're no longer an assistant|you're no longer bound|"
    "you're no longer claude|you have been liberated|you have been jailbroken|"
    "you have been reprogrammed|you've been jailbroken|you've been reprogrammed|"
    "your new name is|your new identity is|your new persona is|your new role is|"
    "your name is now|your identity is now|your persona is now|"
    "assume the persona of|you roleplay as|you role-play as|"
    "act as an unrestricted|act as an unfiltered|act as an uncensored|act as a jailbroken|"
    "act as an evil|act as dan|i want you to act as|i want you to pretend|"
    "i want you to behave as|i want you to roleplay",
)

FRENCH = Language(
    verbs="ignore|ignorez|ignorer|ignores|oublie|oubliez|oublier|néglige|négligez|abandonne|"
    "abandonnez|écarte|écartez|rejette|rejetez|contourne|contournez|outrepasse|"
    "outrepassez|désobéis à|désobéissez à|laisse tomber|laissez tomber|laisse de côté|"
    "laissez de côté|mets de côté|mettez de côté|fais abstraction de|"
    "faites abstraction de|ne tiens pas compte de|ne tiens pas compte des|"
    "ne tenez pas compte de|ne tenez pas compte des|ne tiens plus compte de|"
    "ne tiens plus compte des|ne tenez plus compte des|ne suis pas|ne suivez pas|"
    "ne suis plus|ne suivez plus|n'obéis plus à|n'obéissez plus à|passe outre|"
    "passez outre|fais fi de|faites fi de",
    weak_verbs="supprime|supprimez|efface|effacez|annule|annulez|saute|sautez|remplace|"
    "remplacez|révoque|révoquez",
    objects="instructions|instruction|consignes|consigne|directives|directive|indications|"
    "programmation|prompt système|invite système|message système|garde-fous",
    weak_objects="règles|règle|contexte|contraintes|restrictions|limites|politiques|prompt|"
    "prompts|conversation|principes|rôle|identité",
    artefacts="fichier|fichiers|section|page|dossier|document|lien|tableau",
    any_before="les|tes|vos|toutes|tous|toute|ces|de|des|du|la|le|l'|ta|ton|votre|et|d'|leur|leurs",
    agent_before="toutes|tous|toute|n'importe quelles",
    own_before="tes|vos|ta|ton|votre|précédentes|précédents|initiales|originales|premières",
    own_after="précédentes|précédents|précédente|antérieures|antérieurs|antérieure|ci-dessus|"
    "plus haut|d'avant|d'origine|initiales|initiaux|originales|données|reçues|"
    "du système|système|qu'on t'a données|que tu as reçues|que vous avez reçues|"
    "de l'assistant|jusqu'ici|jusqu'à présent|de départ",
    void="ne s'appliquent plus|ne s'applique plus|ne comptent plus|ne compte plus|"
    "ne valent plus|ne vaut plus|ne sont plus valables|ne sont plus valides|"
    "ne sont plus en vigueur|n'ont plus cours|n'ont plus de valeur|nulles|nuls|caduques|"
    "caducs|annulées|annulés|révoquées|révoqués|levées|suspendues|invalides|ignorées|"
    "sans effet|sans valeur|à ignorer|remplacées",
    time="à partir de maintenant|à partir d'aujourd'hui|à partir de ce moment|"
    "à partir de ce message|dès maintenant|dès à présent|désormais|dorénavant|"
    "à l'avenir|à présent|pour la suite|pour tout le reste de la conversation|"
    "jusqu'à nouvel ordre|pour toutes les prochaines réponses",
    addressees="tu|vous|toi|te|t'",
    you_modal="tu dois|tu devras|tu vas|tu seras|tu es|vous devez|vous devrez|vous allez|"
    "vous serez|vous êtes|tu ne dois|vous ne devez|tu ne devras|tu répondras|"
    "vous répondrez",
    fillers="s'il te plaît|s'il vous plaît|svp|complètement|totalement|entièrement|"
    "maintenant|simplement|juste|donc|alors|et|immédiatement|bien|purement",
    third="l'assistant|l'agent|l'ia|le modèle|le bot|le chatbot|claude|chatgpt|tes réponses|"
    "vos réponses|ton rôle|votre rôle|ta tâche|votre tâche",
    modals="doit|devra|va|sera|est|peut|ne doit|répond|répondra|obéit|obéira|suit|suivra",
    roles="tu es maintenant|tu es désormais|tu es dorénavant|tu es à présent|tu es devenu|"
    "tu es devenue|vous êtes maintenant|vous êtes désormais|vous êtes dorénavant|"
    "vous êtes à présent|maintenant tu es|maintenant vous êtes|désormais tu es|"
    "tu n'es plus|vous n'êtes plus|fais semblant d'être|faites semblant d'être|"
    "agis comme si tu|agissez comme si vous|comporte-toi comme si|"
    "comportez-vous comme si|joue le rôle d|jouez le rôle d|joue le rôle de|"
    "jouez le rôle de|ton nouveau rôle est|votre nouveau rôle est|"
    "ta nouvelle identité est|votre nouvelle identité est|ta nouvelle tâche est|"
    "votre nouvelle tâche est|ta vraie mission est|ta véritable mission est|"
    "nouvelles instructions :|nouvelles consignes :|prompt système|invite système",
)

SPANISH = Language(
    verbs="ignora|ignore|ignoren|ignorad|ignorar|olvida|olvide|olviden|olvidad|olvidar|"
    "olvídate de|olvídese de|descarta|descarte|descarten|descartar|desecha|deseche|"
    "omite|omita|omitir|deja de lado|deje de lado|dejar de lado|haz caso omiso de|"
    "haz caso omiso a|haga caso omiso de|hacer caso omiso de|no hagas caso de|"
    "no hagas caso a|no haga caso de|no sigas|no siga|no obedezcas|no obedezca|"
    "no tengas en cuenta|no tenga en cuenta|deja de seguir|deje de seguir|desobedece|"
    "desobedezca|pasa por alto|pase por alto|prescinde de|prescinda de|abandona|abandone|"
    "anula|anule|elude",
    weak_verbs="elimina|elimine|borra|borre|cancela|cancele|revoca|revoque|quita|quite|"
    "reemplaza|reemplace|salta|sáltate",
    objects="instrucciones|instrucción|indicaciones|directrices|directivas|consignas|pautas|"
    "programación|prompt del sistema|mensaje del sistema|salvaguardas",
    weak_objects="reglas|regla|normas|contexto|restricciones|limitaciones|límites|políticas|"
    "prompt|prompts|conversación|principios|rol|papel|identidad",
    artefacts="archivo|archivos|sección|página|carpeta|documento|enlace|tabla",
    any_before="las|los|tus|sus|todas|todos|estas|esas|aquellas|de|del|la|el|tu|su|y|o|"
    "vuestras|cualquier",
    agent_before="todas|todos|cualquier|cualesquiera",
    own_before="tus|sus|tu|su|vuestras|anteriores|previas|previos|originales|iniciales",
    own_after="anteriores|anterior|previas|previos|previa|precedentes|de arriba|de antes|"
    "iniciales|originales|del sistema|recibidas|que recibiste|que te dieron|"
    "que se te dieron|hasta ahora|dadas",
    void="ya no aplican|ya no se aplican|ya no son válidas|ya no son validas|ya no valen|"
    "ya no cuentan|ya no rigen|ya no están vigentes|no aplican|no se aplican|"
    "quedan sin efecto|nulas|nulos|anuladas|anulados|inválidas|invalidas|revocadas|"
    "canceladas|suspendidas|sin efecto|sin validez|ignoradas|dejan de aplicar|"
    "dejaron de aplicar|han caducado|caducadas",
    time="a partir de ahora|de ahora en adelante|desde ahora|desde este momento|"
    "a partir de este momento|en adelante|a partir de hoy|en lo sucesivo|en el futuro|"
    "de aquí en adelante|hasta nuevo aviso|para el resto de la conversación|"
    "en todas las respuestas futuras",
    addressees="tú|eres|serás|debes|deberás|vas a|tienes que|responderás|responde|contesta|"
    "contestarás|actúa|actuarás|obedece|obedecerás|usted|ustedes|vosotros",
    you_modal="debes|deberás|vas a|tienes que|tú debes|usted debe|usted deberá|ustedes deben|"
    "responderás|serás|eres",
    fillers="por favor|completamente|totalmente|simplemente|solo|ahora|entonces|pues|y|ya|"
    "inmediatamente|de inmediato",
    third="el asistente|el agente|la ia|el modelo|el bot|claude|chatgpt|tus respuestas|"
    "tu rol|tu papel|tu tarea",
    modals="debe|deberá|va a|será|es|tiene que|responderá|responde|obedece|obedecerá|puede",
    roles="ahora eres|eres ahora|ya no eres|ahora usted es|usted es ahora|ya no es usted|"
    "finge ser|finge que eres|fingir ser|finja ser|finja que es|actúa como si|"
    "actúe como si|haz de cuenta que eres|haz como si fueras|tu nuevo rol es|"
    "tu nuevo papel es|tu nueva tarea es|tu nueva identidad es|tu verdadera tarea es|"
    "tu verdadera misión es|nuevas instrucciones :|prompt del sistema|"
    "te has convertido en|ahora te llamas",
)

PORTUGUESE = Language(
    verbs="ignore|ignora|ignorar|ignorem|esqueça|esquece|esquecer|esqueçam|desconsidere|"
    "desconsidera|desconsiderar|descarte|descarta|descartar|despreze|despreza|abandone|"
    "abandona|deixe de lado|deixa de lado|não siga|não obedeça|não obedece|"
    "não leve em conta|não leve em consideração|pare de seguir|deixe de seguir|"
    "desobedeça|ignore por completo|contorne|burle",
    weak_verbs="apague|apaga|remova|remove|cancele|cancela|anule|anula|revogue|revoga|"
    "substitua|substitui|elimine|elimina|pule",
    objects="instruções|instrução|orientações|diretrizes|diretivas|programação|"
    "prompt do sistema|mensagem do sistema|salvaguardas",
    weak_objects="regras|regra|normas|contexto|restrições|limitações|limites|políticas|"
    "prompt|prompts|conversa|princípios|papel|função|identidade",
    artefacts="arquivo|arquivos|seção|página|pasta|documento|link|tabela",
    any_before="as|os|suas|seus|tuas|teus|todas|todos|essas|estas|aquelas|de|da|do|das|dos|"
    "a|o|sua|seu|tua|teu|e|ou|quaisquer|qualquer",
    agent_before="todas|todos|quaisquer|qualquer",
    own_before="suas|seus|tuas|teus|sua|seu|tua|teu|anteriores|prévias|originais|iniciais",
    own_after="anteriores|anterior|prévias|prévios|precedentes|acima|de antes|iniciais|"
    "originais|do sistema|recebidas|que você recebeu|que te deram|até agora|dadas",
    void="não se aplicam mais|não valem mais|já não valem|já não se aplicam|não se aplicam|"
    "não são mais válidas|deixaram de valer|deixam de valer|nulas|nulos|anuladas|"
    "anulados|inválidas|revogadas|canceladas|suspensas|sem efeito|sem validade|"
    "ignoradas|perderam a validade",
    time="a partir de agora|de agora em diante|daqui em diante|daqui para frente|"
    "a partir de hoje|de hoje em diante|doravante|desde já|a partir deste momento|"
    "até novo aviso|no futuro|pelo resto da conversa|em todas as respostas futuras",
    addressees="você|voce|vocês|tu|és|deves|deverás|vais|tens que|responderás|responda|"
    "responde|obedeça|obedece",
    you_modal="você deve|você vai|você deverá|você tem que|você é|você será|tu deves|deves|"
    "vocês devem|tens que",
    fillers="por favor|completamente|totalmente|simplesmente|apenas|só|agora|então|e|já|"
    "imediatamente",
    third="o assistente|o agente|a ia|o modelo|o bot|claude|chatgpt|suas respostas|"
    "seu papel|sua função|sua tarefa",
    modals="deve|deverá|vai|será|é|tem que|responderá|responde|obedece|pode",
    roles="você agora é|você é agora|agora você é|você não é mais|você já não é|"
    "tu agora és|agora és|finja ser|finja que você é|finja que é|finge ser|"
    "aja como se|age como se|seu novo papel é|sua nova função é|sua nova tarefa é|"
    "sua nova identidade é|sua verdadeira tarefa é|novas instruções :|prompt do sistema|"
    "você se tornou|agora você se chama",
)

ITALIAN = Language(
    verbs="ignora|ignorate|ignori|ignorare|dimentica|dimenticate|dimentichi|dimenticare|"
    "trascura|trascurate|scarta|scartate|tralascia|tralasciate|non seguire|"
    "non seguite|non obbedire|non tenere conto|non tenete conto|lascia perdere|"
    "lasciate perdere|metti da parte|mettete da parte|smetti di seguire|disobbedisci|"
    "aggira|aggirate|abbandona",
    weak_verbs="elimina|eliminate|cancella|cancellate|annulla|annullate|rimuovi|rimuovete|"
    "revoca|sostituisci|salta",
    objects="istruzioni|istruzione|indicazioni|direttive|linee guida|programmazione|"
    "prompt di sistema|messaggio di sistema",
    weak_objects="regole|regola|norme|contesto|vincoli|restrizioni|limitazioni|limiti|"
    "politiche|prompt|conversazione|principi|ruolo|identità",
    artefacts="file|sezione|pagina|cartella|documento|link|tabella",
    any_before="le|i|gli|tue|tuoi|sue|suoi|vostre|tutte|tutti|queste|quelle|di|delle|dei|"
    "la|il|lo|l'|tua|tuo|e|o|qualsiasi|ogni",
    agent_before="tutte|tutti|qualsiasi|ogni",
    own_before="tue|tuoi|tua|tuo|sue|suoi|vostre|precedenti|originali|iniziali",
    own_after="precedenti|precedente|anteriori|di sopra|sopra|qui sopra|di prima|iniziali|"
    "originali|di sistema|del sistema|ricevute|che hai ricevuto|finora|date",
    void="non valgono più|non si applicano più|non sono più valide|non contano più|"
    "non sono più in vigore|nulle|annullate|revocate|invalide|sospese|da ignorare|"
    "ignorate|senza effetto|decadute",
    time="da ora in poi|d'ora in poi|da adesso in poi|da adesso|da oggi in poi|da oggi|"
    "d'ora innanzi|in futuro|fino a nuovo ordine|per il resto della conversazione|"
    "a partire da ora|a partire da adesso|d'ora in avanti|da questo momento",
    addressees="tu|sei|devi|dovrai|risponderai|rispondi|obbedisci|obbedirai|voi|siete|dovete",
    you_modal="devi|dovrai|tu devi|tu dovrai|sei|sarai|dovete|risponderai",
    fillers="per favore|completamente|totalmente|semplicemente|solo|ora|adesso|quindi|e|subito",
    third="l'assistente|l'agente|l'ia|il modello|il bot|claude|chatgpt|le tue risposte|"
    "il tuo ruolo|il tuo compito",
    modals="deve|dovrà|sarà|è|risponde|risponderà|obbedisce|può",
    roles="ora sei|adesso sei|sei ora|sei adesso|non sei più|fingi di essere|"
    "fai finta di essere|fingiti|comportati come se|il tuo nuovo ruolo è|"
    "il tuo nuovo compito è|la tua nuova identità è|il tuo vero compito è|"
    "nuove istruzioni :|prompt di sistema|sei diventato|sei diventata|ora ti chiami",
)

GERMAN = Language(
    verbs="ignoriere|ignorier|ignoriert|ignorieren sie|ignorieren|vergiss|vergesst|"
    "vergessen sie|vergessen|missachte|missachtet|missachten sie|verwirf|verwerft|"
    "verwerfen sie|übergehe|übergeht|übergehen sie|umgehe|umgeht|umgehen sie|"
    "setze dich hinweg über|setzen sie sich hinweg über|hör auf zu befolgen|"
    "befolge nicht|befolgen sie nicht|befolge keine|befolge nicht mehr|"
    "beachte nicht|beachte keine|beachten sie nicht|beachte nicht mehr|"
    "kümmere dich nicht um|lass außer acht|lassen sie außer acht|vernachlässige",
    weak_verbs="lösche|löscht|löschen sie|entferne|entfernt|entfernen sie|streiche|"
    "überspringe|widerrufe|ersetze|hebe auf",
    objects="anweisungen|anweisung|instruktionen|instruktion|vorgaben|anordnungen|"
    "direktiven|programmierung|systemprompt|system-prompt|systemanweisungen|"
    "systemnachricht|leitplanken",
    weak_objects="regeln|regel|richtlinien|kontext|einschränkungen|beschränkungen|grenzen|"
    "prompt|prompts|unterhaltung|prinzipien|rolle|identität|vorschriften",
    artefacts="datei|dateien|abschnitt|seite|ordner|dokument|link|tabelle",
    any_before="die|alle|allen|deine|deinen|deiner|ihre|ihren|sämtliche|sämtlichen|diese|"
    "diesen|jegliche|jede|jeden|der|den|des|und|oder|von|bisher",
    agent_before="alle|allen|sämtliche|sämtlichen|jegliche|jede|jeden",
    own_before="deine|deinen|deiner|ihre|ihren|vorherigen|vorherige|vorheriges|bisherigen|"
    "bisherige|obigen|obige|vorigen|vorige|früheren|frühere|vorangegangenen|"
    "vorangegangene|ursprünglichen|ursprüngliche|vorstehenden|vorstehende|"
    "anfänglichen|system",
    own_after="von oben|oben|von vorher|von vorhin|bisher|die du erhalten hast|"
    "die du bekommen hast|die dir gegeben wurden|aus dem systemprompt|vom system|"
    "bis jetzt",
    void="gelten nicht mehr|gilt nicht mehr|sind ungültig|ungültig|aufgehoben|nichtig|"
    "hinfällig|widerrufen|außer kraft|nicht mehr gültig|zu ignorieren|ignoriert|"
    "verworfen|erloschen|nicht mehr in kraft|nicht mehr bindend|haben keine gültigkeit",
    time="ab jetzt|ab sofort|von nun an|von jetzt an|ab heute|ab diesem moment|künftig|"
    "zukünftig|in zukunft|fortan|bis auf weiteres|für den rest der unterhaltung|"
    "für alle künftigen antworten",
    addressees="du|dich|dir|bist|wirst|musst|sollst|darfst|antwortest",
    you_modal="du musst|du wirst|du sollst|du darfst|du bist|musst du|wirst du|sollst du|"
    "darfst du|bist du|sie müssen|sie werden|sie sollen",
    fillers="bitte|einfach|jetzt|nun|also|dann|und|komplett|vollständig|sofort|ganz|gefälligst",
    third="der assistent|die assistentin|der agent|die ki|das modell|der bot|claude|"
    "chatgpt|deine antworten|deine rolle|deine aufgabe",
    modals="wird|muss|soll|darf|ist|antwortet|gehorcht|befolgt|kann|hat",
    roles="du bist jetzt|du bist nun|du bist ab sofort|du bist ab jetzt|du bist von nun an|"
    "du bist ab heute|jetzt bist du|nun bist du|ab sofort bist du|ab jetzt bist du|"
    "du bist keine ki|du bist kein assistent|du bist kein sprachmodell|du bist kein bot|"
    "du bist nicht mehr|du bist nicht länger|tu so als ob|tu so als wärst du|"
    "tu so als seist du|gib vor zu sein|spiele die rolle|schlüpfe in die rolle|"
    "deine neue rolle ist|deine neue aufgabe ist|deine wahre aufgabe ist|"
    "deine neue identität ist|neue anweisungen :|systemprompt|system-prompt|"
    "du bist geworden|du heißt jetzt|du heißt ab sofort",
)

RUSSIAN = Language(
    verbs="игнорируй|игнорируйте|проигнорируй|проигнорируйте|забудь|забудьте|забудь про|"
    "забудь о|забудьте о|не обращай внимания на|не обращайте внимания на|отбрось|"
    "отбросьте|пренебреги|пренебрегите|не следуй|не следуйте|не выполняй|"
    "не выполняйте|не подчиняйся|перестань следовать|перестаньте следовать|обойди|"
    "обойдите|откажись от|откажитесь от|отмени|отмените",
    weak_verbs="удали|удалите|сотри|сотрите|очисти|очистите|замени|пропусти",
    objects="инструкции|инструкций|инструкциям|инструкциями|указания|указаний|директивы|"
    "директив|системный промпт|системные инструкции|системное сообщение|установки|"
    "установок|программирование",
    weak_objects="правила|правил|промпт|промпты|контекст|ограничения|ограничений|политики|"
    "принципы|роль",
    artefacts="файл|файла|раздел|страница|папка|документ|ссылка|таблица",
    any_before="все|всех|всё|твои|твоих|ваши|ваших|свои|своих|эти|этих|те|тех|любые|любых|и|или",
    agent_before="все|всех|любые|любых",
    own_before="твои|твоих|ваши|ваших|свои|своих|предыдущие|предыдущих|прежние|прежних|"
    "прошлые|прошлых|вышеуказанные|вышеуказанных|вышеприведённые|изначальные|"
    "изначальных|исходные|исходных|системные|системных|данные тебе",
    own_after="выше|ранее|до этого|которые тебе дали|которые ты получил|полученные|"
    "данные тебе|из системного промпта",
    void="больше не действуют|больше не действительны|больше не применяются|"
    "больше не актуальны|недействительны|отменены|аннулированы|утратили силу|"
    "не действуют|не имеют силы|больше не имеют силы",
    time="с этого момента|с этой минуты|с сегодняшнего дня|отныне|впредь|теперь|"
    "начиная с этого момента|начиная с сегодняшнего дня|в дальнейшем|"
    "до дальнейшего уведомления|до конца разговора",
    addressees="ты|вы|тебе|тебя|вам|будешь|должен|должна|обязан",
    you_modal="ты должен|ты должна|ты будешь|ты обязан|вы должны|вы будете|должен ты",
    fillers="пожалуйста|просто|полностью|теперь|сейчас|же|и|тогда|немедленно",
    third="ассистент|помощник|агент|модель|бот|claude|chatgpt|твои ответы|твоя роль",
    modals="должен|должна|будет|обязан|является|отвечает|может",
    roles="теперь ты|ты теперь|ты больше не|вы больше не|теперь вы|притворись|притворитесь|"
    "представь что ты|представь себе что ты|твоя новая роль|твоя новая задача|"
    "твоя настоящая задача|новые инструкции :|системный промпт|ты стал|ты стала|"
    "тебя теперь зовут",
)

LANGUAGES = (ENGLISH, FRENCH, SPANISH, PORTUGUESE, ITALIAN, GERMAN, RUSSIAN)

# Chinese (simplified and traditional), with the Japanese and Korean words that fit the same
# shapes: no spaces between words, so the rules look a few characters apart instead.
_VERBS = (
    "忽略|忽视|忽視|无视|無視|忘记|忘記|忘掉|忘了|丢弃|丟棄|抛弃|拋棄|放弃|放棄|舍弃|"
    "捨棄|摒弃|摒棄|抛开|拋開|撇开|撇開|绕过|繞過|违背|違背|违反|違反|不要理会|"
    "不要理會|不用理会|不用理會|别理会|別理會|不必理会|不必理會|不要管|别管|別管|"
    "不用管|不要遵守|不用遵守|不必遵守|不再遵守|停止遵守|不要遵循|不再遵循|不要听从|"
    "不要聽從|不再听从|不再聽從|推翻|废除|廢除|作废|作廢|無視して|無視し|忘れて|忘れ|"
    "破棄|従わない|무시하고|무시해|무시하세요|무시|잊어버려|잊어|잊고"
)
_WEAK_VERBS = "清除|删除|刪除|取消|跳过|跳過|削除|삭제|취소"
_OBJECTS = (
    "指令|指示|提示词|提示詞|系统提示|系統提示|系统指令|系統指令|系统消息|系統消息|"
    "指引|指导|指導|プロンプト|システムプロンプト|지시|지침|프롬프트|시스템 프롬프트"
)
_WEAK_OBJECTS = (
    "规则|規則|设定|設定|约束|約束|限制|规定|規定|准则|準則|上下文|对话|對話|说明|"
    "說明|策略|政策|原则|原則|角色|身份|ルール|制約|規則|규칙|제한|설정|원칙"
)
_ANY = "所有|全部|一切|任何|すべて|全て|모든"
_OWN = (
    "之前|以前|先前|此前|上面|上述|前面|前述|以上|原来|原來|原有|原先|最初|初始|你的|"
    "您的|你收到的|你得到的|系统的|系統的|これまで|上記|前の|あなたの|이전|위의|너의|"
    "당신의|기존"
)
_VOID = (
    "不再适用|不再適用|不再有效|不再生效|不再成立|不再算数|不再算數|不再管用|失效|"
    "作废|作廢|无效|無效|废除|廢除|被取消|已取消|被撤销|被撤銷|已撤销|已撤銷|被废止|"
    "被廢止|無効|もう有効ではない|適用されない|더 이상 유효하지|무효|적용되지 않"
)
_TIME = (
    "从现在开始|从现在起|從現在開始|從現在起|从此以后|從此以後|从此|從此|从今以后|"
    "從今以後|从今往后|從今往後|从今天开始|從今天開始|从今天起|從今天起|今后|今後|"
    "往后|往後|今から|これから|以降は|지금부터|이제부터|앞으로"
)
_ADDRESSEES = (
    "你|您|助手|ai|人工智能|模型|智能体|智能體|机器人|機器人|あなた|君|"
    "アシスタント|너는|너|당신은|당신"
)
_ROLES = (
    "你现在是|你現在是|现在你是|現在你是|你现在扮演|你現在扮演|你现在就是|你現在就是|"
    "你不再是|你已经不是|你已經不是|假装你是|假裝你是|假装自己是|假裝自己是|假装成|"
    "假裝成|扮演一个|扮演一個|你的新角色是|你的新身份是|你的新任务是|你的新任務是|"
    "你的新名字是|你的真正任务是|你的真正任務是|新的指令:|新指令:|新的指示:|"
    "あなたは今から|今からあなたは|あなたはもう|あなたの新しい役割は|新しい指示:|"
    "너는 이제|당신은 이제|이제 너는|이제 당신은|새로운 지시:"
)
CJK = {
    "verbs": _VERBS,
    "weak_verbs": _WEAK_VERBS,
    "objects": _OBJECTS,
    "weak_objects": _WEAK_OBJECTS,
    "any_": _ANY,
    "own": _OWN,
    "void": _VOID,
    "time": _TIME,
    "addressees": _ADDRESSEES,
    "roles": _ROLES,
}
