"""Real given and family names by region, for the name-matching evaluation (evaluation.py) and the index bench.

Common names as people bear them, written as each region writes them in Latin letters (and, where the region
has its own script, the script's form is produced by rule in evaluation.py, not listed here). The pools are
lists of names, not of pairs: which pairs match is decided by how a variation was made, never by a list.
"""

REGIONS: dict[str, dict[str, list[str]]] = {
    "southern_african": {
        "given": """Sipho Themba Sibusiso Bongani Thabo Sandile Nomsa Mandla Thandiwe Zanele Nokuthula Sifiso
            Lindiwe Siphiwe Sibongile Nonhlanhla Phumzile Lungile Busisiwe Bhekithemba Mduduzi Nkosinathi Thulani
            Sabelo Gcina Nomcebo Zodwa Lwazi Tengetile Sibonelo Mfanukhona Bonginkosi Sebenele Thabsile Ayanda
            Nhlanhla Vusumuzi Mbuso Lomakhosi Temalangeni Ntombifuthi Khanyisile Siyabonga Sakhile Njabulo
            Mthunzi Nosipho Zandile Phindile Thokozani Hlengiwe Sizwe Lucky Khulekani Wandile Andile Nomvula
            Lerato Palesa Mpho Tumelo Kagiso Dineo Refilwe Thato Tshepo Lebohang Puleng Teboho Mpumelelo Rethabile
            Hlulani Tsakani Nyiko Rhulani Ntsako Hlamalani Tiyiselani Vutomi Khensani Ripfumelo Pieter Johannes
            Hendrik Jacobus Francois Anri Marietjie Elmarie Willem Gerrit Christiaan Annelie Retief Wynand""".split(),
        "family": """Dlamini Simelane Nkosi Mamba Shongwe Ndlovu Motsa Zwane Magagula Mdluli Maseko Khumalo
            Nxumalo Ngwenya Mabuza Hlophe Kunene Tsabedze Matsebula Mavuso Sibandze Ginindza Fakudze Mthethwa
            Shabangu Msibi Mhlanga Nkambule Gamedze Masilela Mkhabela Vilakati Nhlabatsi Mahlalela Lukhele
            Vilane Mkhonta Lokotfwako Mavimbela Gumedze Dube Mazibuko Ntuli Zulu Cele Mkhize Ngcobo Buthelezi
            Mokoena Molefe Nkuna Baloyi Mathebula Maluleke Chauke Shirindza Mabunda Ngobeni Rikhotso Hlongwane
            Mokoatle Moshoeshoe Letsie Mohapi Ramokgopa Sekhukhune Tau Mofokeng Radebe Motaung Nel Botha
            Van_der_Merwe Pretorius Steyn Coetzee Venter Du_Plessis Fourie Kruger Swanepoel Oosthuizen""".split(),
    },
    "anglo": {
        "given": """James John Robert Michael William David Richard Joseph Thomas Charles Christopher Daniel
            Matthew Anthony Mark Donald Steven Paul Andrew Joshua Kenneth Kevin Brian George Timothy Ronald Edward
            Jason Jeffrey Ryan Mary Patricia Jennifer Linda Elizabeth Barbara Susan Jessica Sarah Karen Lisa
            Nancy Betty Margaret Sandra Ashley Kimberly Emily Donna Michelle Carol Amanda Melissa Deborah
            Stephanie Rebecca Sharon Laura Cynthia Kathleen Amy Angela Shirley Anna Brenda Pamela Emma Nicole
            Helen Samantha Katherine Christine Rachel Catherine Heather Victoria Eleanor Harriet
            Oliver Harry""".split(),
        "family": """Smith Johnson Williams Brown Jones Miller Davis Wilson Anderson Taylor Thomas Moore Jackson
            Martin Thompson White Harris Clark Lewis Robinson Walker Young Allen King Wright Scott Hill Green
            Adams Baker Nelson Carter Mitchell Roberts Turner Phillips Campbell Parker Evans Edwards Collins
            Stewart Morris Rogers Reed Cook Morgan Bell Murphy Bailey Cooper Richardson Cox Howard Ward Peterson
            Gray James Watson Brooks Kelly Sanders Price Bennett Wood Barnes Ross Henderson Coleman Jenkins
            Perry Powell Long Patterson Hughes Fletcher Ashworth Pemberton Whitfield Blackwood Hargreaves""".split(),
    },
    "arabic": {
        "given": """Mohammed Ahmed Ali Omar Abdullah Hassan Hussein Khalid Ibrahim Youssef Mustafa Mahmoud Tariq
            Faisal Saeed Karim Hamza Bilal Jamal Nasser Rashid Salim Walid Ziad Adel Samir Nabil Fadi Majid Anwar
            Abdulaziz Abdulrahman Abdelkader Ismail Osama Ayman Hisham Sami Marwan Fatima Aisha Maryam Khadija
            Zainab Layla Noor Huda Salma Amira Yasmin Rania Hanan Samira Nadia Dalia Leila Suad Mona Rasha Lubna
            Farida Jamila Nawal Basma""".split(),
        "family": """Al-Sayed Haddad Khalil Hamdan Mansour Nasser Saleh Abboud Qasim Darwish Yousef Hariri
            Al-Masri Al-Rashid Al-Zahrani Al-Qahtani Al-Ghamdi Al-Harbi Al-Otaibi Al-Shammari Al-Dosari Bakr
            Barakat Hijazi Karam Najjar Sabbagh Tamimi Shaheen Awad Jaber Zaidan Farouk Osman Hamad Suleiman
            Abdel-Rahman Abu-Zaid El-Amin Bin-Laden Kassem Haidar Mahfouz Kanaan Rahal Sarraf Antar Obeid
            Fakhoury Hakim Issa Jaafar Madani Nassar Qureshi Rahman Shihab Taha Zaki""".split(),
    },
    "slavic": {
        "given": """Aleksandr Sergei Vladimir Dmitri Andrei Alexei Nikolai Ivan Mikhail Yevgeny Igor Oleg Yuri
            Pavel Viktor Anatoly Konstantin Boris Grigory Vyacheslav Stanislav Roman Maxim Artem Denis Kirill
            Vadim Leonid Gennady Arkady Valentin Bogdan Taras Oleksandr Volodymyr Mykola Piotr Tomasz Krzysztof
            Marek Natalia Olga Tatiana Elena Irina Svetlana Anna Maria Yekaterina Anastasia Yulia Marina Galina
            Lyudmila Valentina Nadezhda Oksana Larisa Vera Zoya Agnieszka Katarzyna Magdalena""".split(),
        "family": """Ivanov Smirnov Kuznetsov Popov Vasiliev Petrov Sokolov Mikhailov Novikov Fedorov Morozov
            Volkov Alekseev Lebedev Semenov Yegorov Pavlov Kozlov Stepanov Nikolaev Orlov Andreev Makarov
            Nikitin Zakharov Zaitsev Soloviev Borisov Yakovlev Grigoriev Romanov Vorobiev Sergeev Kuzmin
            Frolov Aleksandrov Dmitriev Korolev Gusev Kiselev Ilyin Maksimov Polyakov Sorokin Vinogradov
            Kovalenko Shevchenko Bondarenko Tkachenko Kravchenko Kowalski Nowak Wisniewski Wojcik Kaminski
            Lewandowski Zielinski Szymanski Dabrowski Yanukovych Tymoshenko Deripaska Abramovich""".split(),
    },
    "chinese": {
        "given": """Wei Fang Jing Lei Jun Yan Ming Hui Qiang Li Xin Yong Jie Tao Hong Ping Hua Gang Bin Chao
            Xiaoming Jianguo Zhiwei Guoqiang Haiyan Xiuying Guiying Yuying Jianhua Lihua Xiaohong Zhiqiang
            Jianping Xiaoling Chunmei Hongmei Shuang Dandan Yuxuan Zihan Haoran Yichen Jinping Keqiang Wenbo
            Junjie Mingyu Ruoxi Shiyu Tianyu Xinyi Yiming Zhenhua Kaiwen""".split(),
        "family": """Wang Li Zhang Liu Chen Yang Huang Zhao Wu Zhou Xu Sun Ma Zhu Hu Guo He Gao Lin Luo Zheng
            Liang Xie Song Tang Han Feng Deng Cao Peng Zeng Xiao Tian Dong Yuan Pan Jiang Cai Yu Du Ye Cheng
            Wei Su Lu Ding Ren Shen Yao Qian""".split(),
    },
    "hispanic": {
        "given": """Jose Juan Luis Carlos Jorge Miguel Alejandro Francisco Antonio Manuel Pedro Javier Fernando
            Ricardo Roberto Eduardo Sergio Rafael Diego Andres Pablo Alberto Raul Enrique Gustavo Hector Oscar
            Ramon Arturo Guillermo Maria Carmen Ana Laura Isabel Lucia Sofia Elena Patricia Rosa Marta Teresa
            Claudia Veronica Gabriela Adriana Alejandra Beatriz Dolores Guadalupe Mercedes Pilar Rocio
            Ximena""".split(),
        "family": """Garcia Rodriguez Martinez Hernandez Lopez Gonzalez Perez Sanchez Ramirez Torres Flores Rivera
            Gomez Diaz Cruz Morales Reyes Gutierrez Ortiz Jimenez Ruiz Alvarez Mendoza Castillo Romero Vargas
            Moreno Herrera Medina Aguilar Castro Guzman Fernandez Ramos Suarez Dominguez Vazquez Munoz Navarro
            Delgado Rojas Salazar Contreras Espinoza Figueroa Cabrera Valencia Sandoval Ibarra Escobar""".split(),
    },
    "portuguese": {
        "given": """Joao Antonio Francisco Carlos Paulo Pedro Lucas Luiz Marcos Luis Gabriel Rafael Daniel Marcelo
            Bruno Eduardo Felipe Rodrigo Manuel Joaquim Sebastiao Armando Anselmo Goncalo Tiago Fernando Mario
            Maria Ana Francisca Antonia Adriana Juliana Marcia Fernanda Patricia Aline Sandra Camila Amanda
            Conceicao Graca Filipa Ines Beatriz Leonor Madalena Rosario Celeste Esperanca Lurdes""".split(),
        "family": """Silva Santos Oliveira Souza Rodrigues Ferreira Alves Pereira Lima Gomes Costa Ribeiro Martins
            Carvalho Almeida Lopes Soares Fernandes Vieira Barbosa Rocha Dias Nascimento Andrade Moreira Nunes
            Marques Machado Mendes Freitas Cardoso Ramos Goncalves Santana Teixeira Machava Mondlane Chissano
            Guebuza Nhantumbo Cossa Sitoe Macuacua Tembe Mabunda Matsinhe Muianga Cumbe Langa Zimba""".split(),
    },
    "indian": {
        "given": """Rahul Amit Rajesh Suresh Ramesh Vijay Sanjay Anil Sunil Arun Vikram Ravi Deepak Manoj Ashok
            Rakesh Prakash Naveen Srinivas Venkatesh Karthik Arjun Rohit Abhishek Aditya Harish Mahesh Narendra
            Priya Anjali Pooja Neha Sunita Kavita Anita Lakshmi Deepika Divya Shalini Meera Rekha Swati Nisha
            Aishwarya Shreya Radhika Sangeeta Padmavathi Bhagyashree Jayalakshmi Gurpreet Harpreet Manpreet""".split(),
        "family": """Sharma Verma Gupta Singh Kumar Patel Shah Mehta Joshi Reddy Rao Nair Menon Iyer Iyengar Pillai
            Chatterjee Banerjee Mukherjee Das Bose Ghosh Sen Dutta Chowdhury Agarwal Jain Malhotra Kapoor Khanna
            Chopra Bhatia Saxena Srivastava Tiwari Pandey Mishra Dubey Yadav Chauhan Rathore Deshpande
            Kulkarni Patil Gowda Naidu Krishnamurthy Subramanian Venkataraman Ramachandran Gill Sandhu""".split(),
    },
}


# Southern Africa by language, for the evaluation: local names are the ones the matcher must never lose, so each
# language group is a region of its own there (as many people as any other region) rather than a quarter of one.
# Names shared across groups (Mpho, Themba, Mahlangu) are listed once, under the group that bears them most.
# The index bench keeps REGIONS above (its population must not move under another branch's figures).
SOUTHERN_AFRICAN_LANGUAGES: dict[str, dict[str, list[str]]] = {
    "siswati_zulu": {
        "given": """Sipho Themba Sibusiso Bongani Sandile Nomsa Mandla Thandiwe Zanele Nokuthula Sifiso Lindiwe
            Siphiwe Sibongile Nonhlanhla Phumzile Lungile Busisiwe Bhekithemba Mduduzi Nkosinathi Thulani Sabelo
            Gcina Nomcebo Zodwa Lwazi Tengetile Sibonelo Mfanukhona Bonginkosi Sebenele Thabsile Ayanda Nhlanhla
            Vusumuzi Mbuso Lomakhosi Temalangeni Ntombifuthi Khanyisile Siyabonga Sakhile Njabulo Mthunzi
            Nosipho Zandile Phindile Thokozani Hlengiwe Sizwe Khulekani Wandile Nomvula Xolani Mxolisi
            Nomthandazo Siphesihle Lindokuhle Mlungisi Ntokozo Gugulethu Samkelo""".split(),
        "family": """Dlamini Simelane Nkosi Mamba Shongwe Ndlovu Motsa Zwane Magagula Mdluli Maseko Khumalo
            Nxumalo Ngwenya Mabuza Hlophe Kunene Tsabedze Matsebula Mavuso Sibandze Ginindza Fakudze Mthethwa
            Shabangu Msibi Mhlanga Nkambule Gamedze Masilela Mkhabela Vilakati Nhlabatsi Mahlalela Lukhele
            Vilane Mkhonta Lokotfwako Mavimbela Dube Mazibuko Ntuli Zulu Cele Mkhize Ngcobo Buthelezi Radebe
            Sithole Mahlangu Zungu Madonsela Mngomezulu Gumede Tfwala Ndzimandze Sihlongonyane Nhleko""".split(),
    },
    "sotho_tswana": {
        "given": """Lerato Palesa Mpho Tumelo Kagiso Dineo Refilwe Thato Tshepo Lebohang Puleng Teboho Rethabile
            Neo Karabo Katlego Lesedi Boitumelo Kamohelo Tebogo Kgomotso Keabetswe Masego Onalenna Tshegofatso
            Nthabiseng Mamello Relebohile Bokang Reitumetse Dikeledi Ntsoaki Motlatsi Mojalefa Tsietsi Thabang
            Kabelo Lehlohonolo Itumeleng Mathapelo Nthati Tlotliso Kamogelo Oratile Goitseone Bontle Tshiamo
            Lesego Mosa""".split(),
        "family": """Mokoena Molefe Mokoatle Moshoeshoe Letsie Mohapi Ramokgopa Sekhukhune Tau Mofokeng Motaung
            Molapo Mothibi Sello Lekota Masemola Phiri Modise Mokgosi Kgosana Letsoalo Ramaphosa Motsepe Maimane
            Moloi Mosia Mabote Makhele Masilo Lebona Mofolo Matlala Mphahlele Seleke Tlali Legodi Magoro Selepe
            Motloung Thulare Mokhehle Leabua Nqosa Ntsane Khaketla Lesenyeho Ramatlapeng Sefako""".split(),
    },
    "xitsonga": {
        "given": """Hlulani Tsakani Nyiko Rhulani Ntsako Hlamalani Tiyiselani Vutomi Khensani Ripfumelo Hlayisani
            Tinyiko Amukelani Kulani Mixo Nsovo Tsundzukani Vongani Rirhandzu Dzunisani Hitekani Xikombiso
            Basani Nkateko Risuna Gezani Hlengani Masingita Nhlamulo Nyeleti Rixile Tintswalo Mafemani Akani
            Ntsakisi Wisani Fumani Tlangelani Mikateko Kurhula Nhlavutelo Mpfumo Hanyani Tsonisani Khongelani
            Ntshembo""".split(),
        "family": """Nkuna Baloyi Mathebula Maluleke Chauke Shirindza Mabunda Ngobeni Rikhotso Hlongwane Mashaba
            Mabasa Khoza Shibambu Novela Mhlongo Hlungwani Mthombeni Manganyi Nkwinika Mashele Makhubele
            Mahlaule Shikwambana Chabalala Masingi Mathye Ntimane Khosa Mhlari Nghonyama Bila Shivambu Makamu
            Maswanganyi Mnisi Hlabangana Mayimele Mabaso Nobela Sibuyi Mathonsi Ndhlovu Mdaka Ritshuri""".split(),
    },
    "afrikaans": {
        "given": """Pieter Johannes Hendrik Jacobus Francois Anri Marietjie Elmarie Willem Gerrit Christiaan
            Annelie Wynand Marthinus Cornelius Gertruida Susanna Margaretha Elsabe Riaan Stefan Jaco Danie Charl
            Louis Hennie Frikkie Jannie Sarel Stephanus Barend Petrus Andries Nicolaas Schalk Izak Ockert
            Lourens Tjaart Rudolph Anneke Liezel Mariska Chantelle Ronel Sonja Hanlie Karin Elna Juanita Lizette
            Marlene Wilna""".split(),
        "family": """Nel Botha Van_der_Merwe Pretorius Steyn Coetzee Venter Du_Plessis Fourie Kruger Swanepoel
            Oosthuizen Bezuidenhout Steenkamp Potgieter Grobler Le_Roux Du_Toit Van_Wyk Van_Zyl Joubert Jacobs
            Visser Smit Meyer Erasmus Marais Badenhorst Cloete Louw Viljoen Nortje Engelbrecht Liebenberg
            Van_Niekerk Strydom Basson Rossouw Vermeulen Terblanche Lombard Kotze De_Villiers Theron Mostert
            Burger Schoeman Du_Preez Olivier Retief""".split(),
    },
}

# The evaluation's regions: Southern Africa by language, then the other regions of REGIONS.
EVALUATION_REGIONS: dict[str, dict[str, list[str]]] = {
    **SOUTHERN_AFRICAN_LANGUAGES,
    **{region: pools for region, pools in REGIONS.items() if region != "southern_african"},
}
_ALL = {**REGIONS, **SOUTHERN_AFRICAN_LANGUAGES}


def given(region: str) -> list[str]:
    return [name.replace("_", " ") for name in _ALL[region]["given"]]


def family(region: str) -> list[str]:
    """Family names; a few are more than one word ("Van der Merwe"), written with underscores in the pool."""
    return [name.replace("_", " ") for name in _ALL[region]["family"]]
